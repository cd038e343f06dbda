import {
  collisionProblem,
  ratioProblem,
  relativePathProblem,
  ZipErrorCode,
  type ZipLimits,
} from '../../wire/zip-limits.js';
import { ZipError } from './errors.js';
import { isStored } from './media.js';
import { sizeOf, type ProjectFile } from './sources.js';
import type { WrittenEntry } from './writer.js';

/**
 * Refuses, before anything is zipped, a project the service would refuse on upload, with the service's own code:
 * too many entries, a hostile or colliding name, too many bytes unpacked, more stored bytes than an upload may
 * hold, or no entry composition.
 */
export function checkProjectFiles(files: readonly ProjectFile[], composition: string, limits: ZipLimits): void {
  if (files.length > limits.zipEntries) {
    throw new ZipError(
      ZipErrorCode.zipEntryCountExceeded,
      `the archive must hold at most ${limits.zipEntries} entries, got ${files.length}`,
    );
  }
  for (const { path } of files) {
    const problem = relativePathProblem(path, 'entry name');
    if (problem) throw ZipError.of(problem);
  }
  const collision = collisionProblem(files.map(({ path }) => ({ path, isDirectory: false })));
  if (collision) throw ZipError.of(collision);
  const total = files.reduce((sum, { content }) => sum + sizeOf(content), 0);
  if (total > limits.zipUncompressedBytes) {
    throw new ZipError(
      ZipErrorCode.zipDeclaredSizeExceeded,
      `the archive must unpack to at most ${limits.zipUncompressedBytes} bytes, the project has ${total}`,
    );
  }
  // Stored files alone already make the zip at least this large.
  const stored = files.reduce((sum, { path, content }) => sum + (isStored(path) ? sizeOf(content) : 0), 0);
  if (stored > limits.uploadBytes) {
    throw new ZipError(
      ZipErrorCode.uploadTooLarge,
      `the zipped project must be at most ${limits.uploadBytes} bytes, its media alone is ${stored}`,
    );
  }
  const entry = relativePathProblem(composition, '"composition"');
  if (entry) throw ZipError.of(entry);
  if (!files.some(({ path }) => path === composition)) {
    throw new ZipError(
      ZipErrorCode.assetEntryMissing,
      `the project has no entry composition ${JSON.stringify(composition)}`,
      { path: composition },
    );
  }
}

/** Refuses a zip the service would find too compressed, per entry and as a whole (a bomb by its ratio). */
export function checkRatios(entries: readonly WrittenEntry[], limits: ZipLimits): void {
  for (const { path, size, compressedSize } of entries) {
    const problem = ratioProblem(`entry ${JSON.stringify(path)}`, size, compressedSize, limits);
    if (problem) throw ZipError.of({ ...problem, path });
  }
  const size = entries.reduce((sum, entry) => sum + entry.size, 0);
  const compressed = entries.reduce((sum, entry) => sum + entry.compressedSize, 0);
  const problem = ratioProblem('the archive as a whole', size, compressed, limits);
  if (problem) throw ZipError.of(problem);
}
