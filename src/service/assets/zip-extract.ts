import type { Limits } from '../config.js';
import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import type { TreeFile } from '../storage/blob-storage.js';
import { ratioProblem } from '../../wire/zip-limits.js';
import { entryContent } from './zip-inflate.js';
import { checkNoCollisions, checkRelativePath } from './zip-names.js';
import { readZipDirectory, type ZipEntry } from './zip-reader.js';

export type ZipLimits = Pick<Limits, 'zipEntries' | 'zipUncompressedBytes' | 'zipRatio' | 'zipRatioMinBytes'>;

export interface CheckedProject {
  /** The project's files, inflated only as storage reads them (see `BlobStorage.putTree`). */
  readonly files: readonly TreeFile[];
  /** Sum of the declared sizes, which inflation holds every entry to. */
  readonly sizeBytes: number;
}

const FILE_TYPE_MASK = 0o170000;
const ALLOWED_FILE_TYPES: ReadonlySet<number> = new Set([0, 0o100000, 0o040000]);
const SYMLINK = 0o120000;

/**
 * Checks a zipped project from its central directory, before anything is inflated or written: directory
 * structure, entry count, every name, collisions, file types, declared total size, compression ratio of each
 * entry and of the archive as a whole, the entry composition. Returns the files, each inflated lazily with a hard
 * stop at its declared size and a CRC check (`entryContent`), so storage can write them one by one.
 */
export function checkProjectArchive(archive: Uint8Array, composition: string, limits: ZipLimits): CheckedProject {
  const entries = readZipDirectory(archive, limits.zipEntries);
  const named = entries.map((entry) => ({
    entry,
    path: checkRelativePath(entry.name, 'entry name'),
    isDirectory: entry.isDirectory,
  }));
  checkNoCollisions(named);
  for (const { entry } of named) checkFileType(entry);

  const files = named.filter(({ isDirectory }) => !isDirectory);
  const declared = files.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
  if (declared > limits.zipUncompressedBytes) {
    throw new ServiceError(
      ErrorCode.zipDeclaredSizeExceeded,
      `the archive must unpack to at most ${limits.zipUncompressedBytes} bytes, it declares ${declared}`,
    );
  }
  for (const { entry } of files)
    checkRatio(`entry ${JSON.stringify(entry.name)}`, entry.uncompressedSize, entry.compressedSize, limits);
  // Many entries just under the per-entry threshold add up: 500 of them unpacked 550 KB into 500 MiB.
  const compressed = files.reduce((sum, { entry }) => sum + entry.compressedSize, 0);
  checkRatio('the archive as a whole', declared, compressed, limits);
  if (!files.some(({ path }) => path === composition)) {
    throw new ServiceError(
      ErrorCode.assetEntryMissing,
      `the archive has no entry composition ${JSON.stringify(composition)}`,
      { param: 'composition' },
    );
  }
  return {
    files: files.map(({ entry, path }) => ({ path, content: entryContent(archive, entry) })),
    sizeBytes: declared,
  };
}

function checkFileType(entry: ZipEntry): void {
  if (entry.unixMode === undefined) return;
  const type = entry.unixMode & FILE_TYPE_MASK;
  if (ALLOWED_FILE_TYPES.has(type)) return;
  const kind = type === SYMLINK ? 'a symbolic link' : `a special file (mode ${type.toString(8)})`;
  throw new ServiceError(
    ErrorCode.zipEntrySymlink,
    `entry ${JSON.stringify(entry.name)} must be a regular file or folder, got ${kind}`,
  );
}

function checkRatio(what: string, uncompressed: number, compressed: number, limits: ZipLimits): void {
  const problem = ratioProblem(what, uncompressed, compressed, limits);
  if (problem) throw new ServiceError(problem.code, problem.message);
}
