import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import type { ZipEntry } from './zip-reader.js';

/** Compressed bytes handed to the inflater at a time, and the most it hands back at a time. */
const CHUNK_BYTES = 64 * 1024;
const METHOD_STORED = 0;

/**
 * The bytes of one entry, chunk by chunk as they are inflated: the consumer's pace (a disk write) sets how fast,
 * so only a few chunks are in memory at any time. Stops with `zip_inflated_size_exceeded` as soon as the entry
 * produces more than it declared (a lying header is a bomb), and checks the total size and the CRC-32 at the end
 * (`zip_invalid`); corrupt or truncated deflate data is `zip_invalid` too.
 */
export async function* entryContent(archive: Uint8Array, entry: ZipEntry): AsyncGenerator<Uint8Array> {
  const name = JSON.stringify(entry.name);
  const tooLarge = () =>
    new ServiceError(
      ErrorCode.zipInflatedSizeExceeded,
      `entry ${name} inflates to more than its declared ${entry.uncompressedSize} bytes`,
    );
  const data = archive.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === METHOD_STORED && entry.compressedSize > entry.uncompressedSize) throw tooLarge();
  let size = 0;
  let crc = 0;
  for await (const chunk of entry.method === METHOD_STORED ? slices(data) : inflated(data)) {
    size += chunk.byteLength;
    if (size > entry.uncompressedSize) throw tooLarge();
    crc = crc32(chunk, crc);
    yield chunk;
  }
  if (size !== entry.uncompressedSize)
    throw new ServiceError(
      ErrorCode.zipInvalid,
      `entry ${name} holds ${size} bytes, it declares ${entry.uncompressedSize}`,
    );
  if (crc >>> 0 !== entry.crc32 >>> 0)
    throw new ServiceError(ErrorCode.zipInvalid, `entry ${name} fails its CRC-32 check`);
}

function* slices(data: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < data.byteLength; offset += CHUNK_BYTES)
    yield data.subarray(offset, offset + CHUNK_BYTES);
}

/** Raw deflate data inflated by zlib, pulled chunk by chunk; the streams are destroyed when the consumer stops. */
async function* inflated(data: Uint8Array): AsyncGenerator<Uint8Array> {
  const input = Readable.from(slices(data), { objectMode: false });
  const inflater = createInflateRaw({ chunkSize: CHUNK_BYTES });
  input.on('error', (error) => inflater.destroy(error));
  input.pipe(inflater);
  try {
    for await (const chunk of inflater) yield chunk as Uint8Array;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const message =
      (error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR'
        ? 'is truncated'
        : `is corrupt: ${(error as Error).message}`;
    throw new ServiceError(ErrorCode.zipInvalid, `an entry's deflate data ${message}`, { cause: error });
  } finally {
    input.destroy();
    inflater.destroy();
  }
}
