import type { Readable } from 'node:stream';
import type { ByteRange } from '../../render/byte-range.js';
import { FxError } from '../../runtime/errors.js';

/** What storage refuses; callers never pass such input (the routes check ranges, keys are built by `StorageKey`). */
export const StorageErrorCode = {
  /** A key that is empty, absolute, has an empty, `.` or `..` segment, or names storage's own records. */
  keyInvalid: 'storage_key_invalid',
  /** A byte range outside the file, or ending before it starts. */
  rangeInvalid: 'storage_range_invalid',
  /** The object store refused to delete a key (S3 `DeleteObjects` reported it). */
  deleteFailed: 'storage_delete_failed',
  /** A presigned URL lifetime the storage cannot sign (S3: 1 s to 7 days; `signedUrlTtlSeconds`). */
  presignTtlInvalid: 'storage_presign_ttl_invalid',
} as const;
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];

/** A stored file: its size, and its bytes (all of them, or an inclusive range) as a stream opened on demand. */
export interface StoredFile {
  readonly size: number;
  /** Throws `storage_range_invalid` for a range outside the file. */
  stream(range?: ByteRange): Readable;
}

/** One file of a tree to store: its path under the prefix and its bytes, read once, in order, when it is written. */
export interface TreeFile {
  readonly path: string;
  readonly content: Uint8Array | AsyncIterable<Uint8Array>;
}

/**
 * Where projects and outputs live, by key (`assets/<id>/…`, `renders/<id>/video.mp4`). The embedded default is
 * `LocalBlobStorage` (blob-storage.local.ts); `S3BlobStorage` (blob-storage.s3.ts) keeps them in an
 * S3-compatible bucket (see docs/service.md).
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
  /** The renderer is done with a `localDirectory` folder: storage that copies trees may drop the copy. */
  releaseDirectory?(prefix: string): void;
  deletePrefix(prefix: string): Promise<void>;
  /** Removes what writes or caches a crash left behind; the service calls it once at start. */
  sweep?(): Promise<void>;
  /**
   * A URL anyone may GET the file at for `expiresInSeconds`, without credentials (an S3 presigned URL). Storage
   * without one has its files served by the service's own signed `/v3/files/…` links.
   */
  presignedGetUrl?(key: string, expiresInSeconds: number): Promise<string>;
}

/** Refuses a range a stored file of `size` bytes cannot serve (both implementations answer alike). */
export function checkRange(range: ByteRange, size: number): void {
  const integers = Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end);
  if (!integers || range.start < 0 || range.end < range.start || range.end >= size) {
    throw new FxError(
      StorageErrorCode.rangeInvalid,
      `a byte range must lie within the file's ${size} bytes, got ${range.start}-${range.end}`,
    );
  }
}

export function keyError(key: string): FxError<StorageErrorCode> {
  return new FxError(StorageErrorCode.keyInvalid, `storage key ${JSON.stringify(key.slice(0, 200))} is refused`);
}
