/**
 * Writes project files into one zip with fflate's streaming `Zip`: deflate of large files runs in fflate's workers
 * (`AsyncZipDeflate`), media is stored (`StoredEntry`), and the main thread only reads 1 MiB chunks, computes
 * their CRC-32 and passes them on, one task per chunk, so it is never blocked for long. The bytes depend on the
 * files alone: entries in the order given, a fixed timestamp, fixed attributes, fixed chunking and level.
 */
import { Zip, type ZipInputFile } from 'fflate';
import { ZipErrorCode } from '../../wire/zip-limits.js';
import { ProjectSourceErrorCode, ZipError } from './errors.js';
import { LazyDeflate } from './lazy-deflate.js';
import { isStored } from './media.js';
import { nextTask } from './next-task.js';
import { StoredEntry } from './stored-entry.js';
import { readBytes, sizeOf, type ProjectFile } from './sources.js';

/** Bytes read and handed to the zip at a time (a Blob read costs per read: 4 MiB reads are twice as fast as 1 MiB ones); also what `onProgress` advances by at most. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Text files up to this size are deflated on the main thread: a worker costs more than the few ms they take. */
const SYNC_DEFLATE_BYTES = 64 * 1024;
/** Every entry's time: 1980-01-01 00:00 local time, which is what a zip stores (it has no time zone). */
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);
/** MS-DOS host and no attributes: plain files everywhere, no Unix mode for the service to check. */
const FIXED_HOST = 0;
const FIXED_ATTRIBUTES = 0;
/** Files in flight at once; each deflated one may have a worker. */
const LANES = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 2));
/** Output gathered into one Blob at a time. */
const BLOB_PART_BYTES = 4 * 1024 * 1024;
/** Chunks a file may have pushed and not yet seen come out, which bounds the memory a slow worker holds. */
const MAX_IN_FLIGHT = 2;

export interface WrittenEntry {
  readonly path: string;
  readonly size: number;
  readonly compressedSize: number;
  readonly stored: boolean;
}

export interface WriteOptions {
  readonly signal?: AbortSignal | undefined;
  /** Called with the input bytes whose output has come out so far, never decreasing. */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /** The zip is refused (`upload_too_large`) as soon as it grows past this. */
  readonly maxBytes: number;
}

/** The zip of `files`, in their order, with each entry's sizes. Rejects with the signal's reason on abort. */
export function writeZip(
  files: readonly ProjectFile[],
  options: WriteOptions,
): Promise<{ zip: Blob; entries: WrittenEntry[] }> {
  const { signal, onBytes, maxBytes } = options;
  return new Promise((resolve, reject) => {
    const output: (Uint8Array | Blob)[] = [];
    // Stored chunks read from a Blob (a picked file): the zip keeps a slice of that Blob instead of the bytes.
    const sources = new WeakMap<Uint8Array, Blob>();
    const entries: WrittenEntry[] = [];
    let outputBytes = 0;
    let creditedBytes = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      zip.terminate();
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = () => fail(signal!.reason);
    const zip = new Zip((error, chunk, final) => {
      if (settled) return;
      if (error)
        return fail(
          new ZipError(ProjectSourceErrorCode.zipFailed, `the project could not be zipped: ${error.message}`, {
            cause: error,
          }),
        );
      // Only kept here: the zip emits a file's output in one burst when the files before it are done.
      output.push(sources.get(chunk) ?? chunk);
      outputBytes += chunk.byteLength;
      if (outputBytes > maxBytes)
        return fail(
          new ZipError(
            ZipErrorCode.uploadTooLarge,
            `the zipped project must be at most ${maxBytes} bytes, it is already ${outputBytes}`,
          ),
        );
      if (!final) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      toBlob(output).then((zip) => resolve({ zip, entries }), reject);
    });
    const credit = (bytes: number) => {
      creditedBytes += bytes;
      onBytes?.(creditedBytes);
    };

    /** Adds one file to the zip; `feed` then pushes its chunks and resolves once all of its output has come out. */
    const addFile = (file: ProjectFile) => {
      const stored = isStored(file.path);
      const size = sizeOf(file.content);
      const inWorker = !stored && size > SYNC_DEFLATE_BYTES;
      const input: ZipInputFile & { push(chunk: Uint8Array, final: boolean): void } = stored
        ? new StoredEntry(file.path)
        : new LazyDeflate(file.path, inWorker);
      Object.assign(input, { mtime: FIXED_TIME, os: FIXED_HOST, attrs: FIXED_ATTRIBUTES });
      zip.add(input);
      return { size, inWorker, feed: () => feed(file, input, stored, size, inWorker) };
    };

    const feed = async (
      file: ProjectFile,
      input: ZipInputFile & { push(chunk: Uint8Array, final: boolean): void },
      stored: boolean,
      size: number,
      inWorker: boolean,
    ) => {
      // `zip.add` set the handler that writes into the zip; ours runs after it, to count.
      const pending: number[] = [];
      let compressedSize = 0;
      let wake: (() => void) | undefined;
      const done = new Promise<void>((resolveDone) => {
        const write = input.ondata!;
        input.ondata = (error, chunk, final) => {
          write(error, chunk, final);
          if (error || settled) return;
          compressedSize += chunk.byteLength;
          // A pushed chunk comes out as one output chunk or more: the first one credits it, the last all the rest.
          if (final) credit(pending.splice(0).reduce((sum, bytes) => sum + bytes, 0));
          else if (pending.length > 0) credit(pending.shift()!);
          wake?.();
          if (final) {
            entries.push({ path: file.path, size, compressedSize, stored });
            resolveDone();
          }
        };
      });
      for (let offset = 0; offset === 0 || offset < size; offset += CHUNK_BYTES) {
        if (settled) return;
        // Bytes in memory are read without a task boundary: make one, so the page runs between chunks.
        if (file.content instanceof Uint8Array) await nextTask();
        const chunk = await readBytes(file.content, offset, offset + CHUNK_BYTES, inWorker);
        if (stored && file.content instanceof Blob)
          sources.set(chunk, file.content.slice(offset, offset + CHUNK_BYTES));
        if (settled) return;
        while (pending.length >= MAX_IN_FLIGHT && !settled)
          await new Promise<void>((resolveWake) => (wake = resolveWake));
        if (settled) return;
        pending.push(chunk.byteLength);
        input.push(chunk, offset + CHUNK_BYTES >= size);
      }
      await done;
    };

    if (signal?.aborted) return fail(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // Every file is added now, in archive order; they are fed in another: the worker-deflated ones first, largest
    // first (the longest poles), the rest in archive order. The bytes do not depend on the order they are fed in.
    const added = files.map(addFile);
    const queue = [
      ...added.filter((entry) => entry.inWorker).sort((a, b) => b.size - a.size),
      ...added.filter((entry) => !entry.inWorker),
    ];
    let next = 0;
    const lane = async () => {
      while (next < queue.length && !settled) await queue[next++]!.feed();
    };
    Promise.all(Array.from({ length: LANES }, lane)).then(
      () => settled || zip.end(),
      (error: unknown) =>
        fail(
          error instanceof ZipError
            ? error
            : new ZipError(
                ProjectSourceErrorCode.sourceInvalid,
                `a project file could not be read: ${(error as Error).message}`,
                { cause: error },
              ),
        ),
    );
  });
}

/**
 * The zip's chunks as one Blob: bytes are copied a few MiB per task, so no one task copies the whole zip; slices of
 * the project's own Blobs are referenced, not copied.
 */
async function toBlob(chunks: readonly (Uint8Array | Blob)[]): Promise<Blob> {
  const parts: Blob[] = [];
  for (let start = 0; start < chunks.length;) {
    let end = start;
    for (let bytes = 0; end < chunks.length && bytes < BLOB_PART_BYTES; end++) {
      const chunk = chunks[end]!;
      if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
    }
    parts.push(new Blob(chunks.slice(start, end) as BlobPart[]));
    start = end;
    await nextTask();
  }
  return new Blob(parts, { type: 'application/zip' });
}
