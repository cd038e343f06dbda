import { Inflate } from 'fflate';
import { crc32 } from 'node:zlib';
import type { Limits } from '../config.js';
import { ErrorCode } from '../constants.js';
import { ServiceError } from '../errors.js';
import { checkNoCollisions, checkRelativePath } from './zip-names.js';
import { readZipDirectory, type ZipEntry } from './zip-reader.js';

export type ZipLimits = Pick<Limits, 'zipEntries' | 'zipUncompressedBytes' | 'zipRatio' | 'zipRatioMinBytes'>;

export interface ExtractedProject {
  /** File contents by relative path (folders implied). */
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly sizeBytes: number;
}

const FILE_TYPE_MASK = 0o170000;
const ALLOWED_FILE_TYPES: ReadonlySet<number> = new Set([0, 0o100000, 0o040000]);
const SYMLINK = 0o120000;
const INFLATE_CHUNK = 16 * 1024;
const METHOD_STORED = 0;

/**
 * Validates a zipped project completely in memory and returns its files; nothing is written. Checks, in order:
 * directory structure, entry count, every name, collisions, file types, declared total size, compression ratio,
 * the entry composition, then inflates each entry with a hard stop at its declared size and checks its CRC.
 */
export function extractProject(archive: Uint8Array, composition: string, limits: ZipLimits): ExtractedProject {
  const entries = readZipDirectory(archive, limits.zipEntries);
  const named = entries.map((entry) => ({ entry, path: checkRelativePath(entry.name, 'entry name'), isDirectory: entry.isDirectory }));
  checkNoCollisions(named);
  for (const { entry } of named) checkFileType(entry);

  const files = named.filter(({ isDirectory }) => !isDirectory);
  const declared = files.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
  if (declared > limits.zipUncompressedBytes) {
    throw new ServiceError(ErrorCode.zipDeclaredSizeExceeded, `the archive must unpack to at most ${limits.zipUncompressedBytes} bytes, it declares ${declared}`);
  }
  for (const { entry } of files) checkRatio(entry, limits);
  if (!files.some(({ path }) => path === composition)) {
    throw new ServiceError(ErrorCode.assetEntryMissing, `the archive has no entry composition ${JSON.stringify(composition)}`, { param: 'composition' });
  }

  const contents = new Map<string, Uint8Array>();
  for (const { entry, path } of files) contents.set(path, inflateEntry(archive, entry));
  return { files: contents, sizeBytes: declared };
}

function checkFileType(entry: ZipEntry): void {
  if (entry.unixMode === undefined) return;
  const type = entry.unixMode & FILE_TYPE_MASK;
  if (ALLOWED_FILE_TYPES.has(type)) return;
  const kind = type === SYMLINK ? 'a symbolic link' : `a special file (mode ${type.toString(8)})`;
  throw new ServiceError(ErrorCode.zipEntrySymlink, `entry ${JSON.stringify(entry.name)} must be a regular file or folder, got ${kind}`);
}

function checkRatio(entry: ZipEntry, limits: ZipLimits): void {
  if (entry.uncompressedSize < limits.zipRatioMinBytes) return;
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (ratio > limits.zipRatio) {
    throw new ServiceError(
      ErrorCode.zipCompressionRatioExceeded,
      `entry ${JSON.stringify(entry.name)} must compress at most ${limits.zipRatio}:1, got ${Math.round(ratio)}:1`,
    );
  }
}

/** Inflates one entry, stopping as soon as it produces more than it declared (a lying header is a bomb). */
function inflateEntry(archive: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = archive.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  const tooLarge = () =>
    new ServiceError(ErrorCode.zipInflatedSizeExceeded, `entry ${JSON.stringify(entry.name)} inflates to more than its declared ${entry.uncompressedSize} bytes`);
  let output: Uint8Array;
  if (entry.method === METHOD_STORED) {
    if (entry.compressedSize > entry.uncompressedSize) throw tooLarge();
    output = data;
  } else {
    output = inflateLimited(data, entry.uncompressedSize, tooLarge);
  }
  if (output.byteLength !== entry.uncompressedSize) {
    throw new ServiceError(ErrorCode.zipInvalid, `entry ${JSON.stringify(entry.name)} holds ${output.byteLength} bytes, it declares ${entry.uncompressedSize}`);
  }
  if (crc32(output) >>> 0 !== entry.crc32 >>> 0) throw new ServiceError(ErrorCode.zipInvalid, `entry ${JSON.stringify(entry.name)} fails its CRC-32 check`);
  return output;
}

function inflateLimited(data: Uint8Array, limit: number, tooLarge: () => ServiceError): Uint8Array {
  const output = new Uint8Array(limit);
  let written = 0;
  let finished = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.byteLength > limit) throw tooLarge();
    output.set(chunk, written);
    written += chunk.byteLength;
    if (final) finished = true;
  });
  try {
    for (let offset = 0; offset < data.byteLength || offset === 0; offset += INFLATE_CHUNK) {
      inflater.push(data.subarray(offset, offset + INFLATE_CHUNK), offset + INFLATE_CHUNK >= data.byteLength);
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(ErrorCode.zipInvalid, `an entry's deflate data is corrupt: ${(error as Error).message}`, { cause: error });
  }
  if (!finished) throw new ServiceError(ErrorCode.zipInvalid, 'an entry\'s deflate data is truncated');
  return output.subarray(0, written);
}
