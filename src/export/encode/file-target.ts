import { BufferTarget, StreamTarget, type StreamTargetChunk, type Target } from 'mediabunny';
import { EXPORT_MEDIA_TYPES, type ExportFormat } from '../formats.js';

/**
 * Where the muxer writes. To a `FileSystemWritableFileStream` (a file the user picked, or one in the origin
 * private file system): mediabunny's StreamTarget, chunked, so at most a few chunks of the file are in memory
 * whatever its length (a 60 s 1080p export is some 90 MB at `high`), and positioned writes let the muxer patch
 * sizes in place. Else an in-memory BufferTarget, read as a Blob at the end.
 */
export interface FileTarget {
  readonly target: Target;
  /** Whether the file goes to a stream (then the MP4 index is written last: no fast start, no second pass). */
  readonly streamed: boolean;
  /** The file once the output is finalized; undefined when it was streamed. */
  blob(): Blob | undefined;
  /** Drops what was written: a stream is aborted, so the file it writes to is left as it was. */
  abort(reason: unknown): Promise<void>;
}

/** Chunks of 8 MiB: few writes through the file system's IPC, and a bounded amount held at once. */
const STREAM_CHUNK_BYTES = 8 * 1024 * 1024;

export function openFileTarget(format: ExportFormat, stream: FileSystemWritableFileStream | undefined): FileTarget {
  if (stream === undefined) {
    const target = new BufferTarget();
    return {
      target,
      streamed: false,
      blob: () =>
        target.buffer === null ? undefined : new Blob([target.buffer], { type: EXPORT_MEDIA_TYPES[format] }),
      abort: async () => {},
    };
  }
  // Our own stream in front of the file's: mediabunny closes its writable on cancel as on finish, and closing a
  // FileSystemWritableFileStream commits what was written. This one closes the file only when not aborted.
  let aborted = false;
  const writable = new WritableStream<StreamTargetChunk>({
    write: (chunk) => stream.write(chunk),
    close: () => (aborted ? undefined : stream.close()),
  });
  const target = new StreamTarget(writable, { chunked: true, chunkSize: STREAM_CHUNK_BYTES });
  return {
    target,
    streamed: true,
    blob: () => undefined,
    abort: async (reason) => {
      if (aborted) return;
      aborted = true;
      await stream.abort(reason).catch(() => {});
    },
  };
}
