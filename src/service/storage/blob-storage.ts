import type { Readable } from 'node:stream';
import type { ByteRange } from '../../render/byte-range.js';

/** A stored file: its size, and its bytes (all of them, or an inclusive range) as a stream opened on demand. */
export interface StoredFile {
  readonly size: number;
  stream(range?: ByteRange): Readable;
}

/** One file of a tree to store: its path under the prefix and its bytes, read once, in order, when it is written. */
export interface TreeFile {
  readonly path: string;
  readonly content: Uint8Array | AsyncIterable<Uint8Array>;
}

/**
 * Where projects and outputs live, by key (`assets/<id>/…`, `renders/<id>/video.mp4`). The reference service
 * uses {@link LocalBlobStorage}; a deployment can swap in S3-compatible storage (see docs/service.md).
 */
export interface BlobStorage {
  /**
   * Stores every file under `prefix` at once: readers see all of them or none, also after a crash. Files are
   * written one after the other as their content arrives (an unpacked upload is never held in memory whole); when
   * a content fails (a zip entry failing its checks), nothing is stored and the error is rethrown.
   */
  putTree(prefix: string, files: Iterable<TreeFile>): Promise<void>;
  /** Moves a finished local file (e.g. the renderer's output) in under `key`. */
  putFile(key: string, sourcePath: string): Promise<void>;
  /** The file's bytes, or undefined when there is no file under `key` (nothing, or a folder). */
  read(key: string): Promise<Uint8Array | undefined>;
  /** The stored file (nothing is opened until `stream` is called), or undefined when there is none. */
  open(key: string): Promise<StoredFile | undefined>;
  /** A local folder holding the tree under `prefix`, for the renderer; treat it as read-only. */
  localDirectory(prefix: string): Promise<string>;
  deletePrefix(prefix: string): Promise<void>;
}
