import type { AsyncFlateStreamHandler, ZipInputFile } from 'fflate';
import { crc32 } from './crc32.js';

/**
 * A zip entry kept as it is (method 0), for fflate's `Zip`: what `ZipPassThrough` does, with a faster CRC-32
 * ({@link crc32}), since for media the CRC is the only work the main thread does per byte.
 */
export class StoredEntry implements ZipInputFile {
  readonly compression = 0;
  crc = 0;
  size = 0;
  ondata: AsyncFlateStreamHandler | undefined;

  constructor(readonly filename: string) {}

  push(chunk: Uint8Array, final: boolean): void {
    this.crc = crc32(chunk, this.crc);
    this.size += chunk.byteLength;
    this.ondata!(null, chunk as Uint8Array<ArrayBuffer>, final);
  }
}
