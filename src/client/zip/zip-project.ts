import { DEFAULT_COMPOSITION } from '../../wire/constants.js';
import { ZIP_LIMITS, type ZipLimits } from '../../wire/zip-limits.js';
import { checkProjectFiles, checkRatios } from './check.js';
import { readSource, sizeOf, type IgnoreOption, type ProjectFile, type ProjectSource } from './sources.js';
import { writeZip, type WrittenEntry } from './writer.js';

/** Progress of `zipProject`: input bytes zipped so far out of the project's total, never decreasing. */
export interface ZipProgress {
  readonly stage: 'zipping';
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface ZipProjectOptions {
  /** The entry composition, which must be in the project (default `index.html`, the service's default). */
  readonly composition?: string;
  /** `false` zips every file given: no fixed ignore set, no `.fxignore` (default true). */
  readonly ignore?: IgnoreOption;
  /** The service's limits when it is configured with others than the defaults (`ZIP_LIMITS`). */
  readonly limits?: Partial<ZipLimits>;
  readonly onProgress?: (progress: ZipProgress) => void;
  readonly signal?: AbortSignal;
}

/** A zipped project, ready for `POST /v3/assets?composition=…`. */
export interface ProjectZip {
  /** The archive (`application/zip`). */
  readonly zip: Blob;
  readonly composition: string;
  /** The entries, in archive order, with their sizes and whether they were stored. */
  readonly entries: readonly WrittenEntry[];
}

/**
 * Zips a composition project for the `/v3` service: reads the source (ignoring `.git`, `node_modules`, `dist`,
 * hidden files, OS litter, root `renders/` and `snapshots/`, and what `.fxignore` lists), refuses what the service
 * would refuse (names, counts, sizes, compression ratios — typed {@link ZipError}s with the service's codes) before
 * anything is uploaded, and writes the same bytes for the same files. Deflate runs in fflate's workers; media
 * files are stored.
 *
 * @example
 * input.addEventListener('change', async () => {
 *   const { zip } = await zipProject(input.files!, { onProgress: ({ bytes, totalBytes }) => (bar.value = bytes / totalBytes) });
 * });
 */
export async function zipProject(source: ProjectSource, options: ZipProjectOptions = {}): Promise<ProjectZip> {
  // Called without awaiting first: a DataTransfer must be read before the drop event ends.
  const reading = readSource(source, options.ignore ?? true);
  return zipFiles(await reading, options);
}

/** @internal Zips files already read (the Node directory source shares this). */
export async function zipFiles(files: readonly ProjectFile[], options: ZipProjectOptions): Promise<ProjectZip> {
  options.signal?.throwIfAborted();
  const limits: ZipLimits = { ...ZIP_LIMITS, ...options.limits };
  const composition = options.composition ?? DEFAULT_COMPOSITION;
  // Code-unit order, which is what the same names sort to everywhere.
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  checkProjectFiles(sorted, composition, limits);
  const totalBytes = sorted.reduce((sum, file) => sum + sizeOf(file.content), 0);
  const { onProgress } = options;
  onProgress?.({ stage: 'zipping', bytes: 0, totalBytes });
  const { zip, entries } = await writeZip(sorted, {
    signal: options.signal,
    maxBytes: limits.uploadBytes,
    onBytes: onProgress && ((bytes) => onProgress({ stage: 'zipping', bytes, totalBytes })),
  });
  const inOrder = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  checkRatios(inOrder, limits);
  return { zip, composition, entries: inOrder };
}
