import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange } from '../../render/byte-range.js';
import { contentTypeOf } from '../../render/content-types.js';
import { FxError } from '../../runtime/errors.js';
import {
  checkRange,
  keyError,
  StorageErrorCode,
  type BlobStorage,
  type StoredFile,
  type TreeFile,
} from './blob-storage.js';
import { inside } from './local-path.js';
import { TreeCache } from './tree-cache.js';
import type { S3Settings } from './s3-settings.js';

/**
 * Commit records live under this prefix, beside every key the service writes (`assets/…`, `renders/…`); no
 * stored key may start with it.
 */
const COMMITS = '.fx-commits/';
/** S3 lists and deletes at most 1 000 keys a request. */
const MAX_PAGE = 1000;
const DEFAULT_IDLE_TREES = 32;
/** SigV4 presigned URLs live at most 7 days. */
const MAX_PRESIGN_SECONDS = 604_800;

export interface S3BlobStorageOptions {
  /** Where `localDirectory` keeps downloaded trees for the renderer; emptied by `sweep`. */
  readonly cacheDir: string;
  /** Released trees kept in `cacheDir` for the next render of the same project. Default 32. */
  readonly maxIdleTrees?: number;
  /** Keys per list/delete request (at most 1 000; tests use fewer to page through small trees). */
  readonly pageSize?: number;
}

/**
 * {@link BlobStorage} in an S3-compatible bucket, through the AWS SDK.
 *
 * All-or-nothing without multi-object transactions: an object is visible only once a **commit record**
 * (`.fx-commits/<key>`) exists for its own key or for one of its prefixes. `putTree` uploads every file to its
 * final key, then writes the tree's record last — its body is the tree's file list, which `localDirectory`
 * downloads; `putFile` writes the file's own record after the upload. A failed content, or a crash, leaves
 * objects no record covers: nobody reads them, `putTree` removes them on failure and `deletePrefix` at the
 * latest. Readers fetch the object and check the records of every prefix of its key in parallel; trees are
 * never changed once committed (ids are fresh), so an object seen under a record is the committed one.
 * `deletePrefix` drops the records first, so a tree disappears at once too.
 */
export class S3BlobStorage implements BlobStorage {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly pageSize: number;
  private readonly cache: TreeCache;

  constructor(settings: S3Settings, options: S3BlobStorageOptions) {
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
      ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
      // Checksums only where S3 requires them: S3-compatible servers do not all take the newer trailing ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = settings.bucket;
    this.cache = new TreeCache(options.cacheDir, options.maxIdleTrees ?? DEFAULT_IDLE_TREES);
    this.pageSize = Math.min(options.pageSize ?? MAX_PAGE, MAX_PAGE);
  }

  sweep(): Promise<void> {
    return this.cache.clear();
  }

  async putTree(prefix: string, files: Iterable<TreeFile>): Promise<void> {
    checkKey(prefix);
    const written: string[] = [];
    try {
      for (const { path, content } of files) {
        const key = checkKey(`${prefix}/${path}`);
        written.push(key);
        await this.upload(key, content instanceof Uint8Array ? content : Readable.from(content));
      }
      const paths = written.map((key) => key.slice(prefix.length + 1));
      await this.put(COMMITS + prefix, JSON.stringify({ files: paths }));
    } catch (error) {
      // Nothing of it is visible without the record; removing the objects only saves space.
      await this.deleteKeys(written).catch(() => {});
      throw error;
    }
  }

  async putFile(key: string, sourcePath: string): Promise<void> {
    checkKey(key);
    await this.upload(key, createReadStream(sourcePath));
    await this.put(COMMITS + key, '{}');
    await rm(sourcePath, { force: true });
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const [object, committed] = await Promise.all([
      missingAsUndefined(this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))),
      this.isCommitted(key),
    ]);
    if (!object?.Body) return undefined;
    if (committed) return object.Body.transformToByteArray();
    (object.Body as Readable).destroy();
    return undefined;
  }

  async open(key: string): Promise<StoredFile | undefined> {
    checkKey(key);
    const [head, committed] = await Promise.all([
      missingAsUndefined(this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))),
      this.isCommitted(key),
    ]);
    if (!head || !committed) return undefined;
    const size = head.ContentLength ?? 0;
    return {
      size,
      stream: (range) => {
        if (range) checkRange(range, size);
        return Readable.from(this.objectBytes(key, range));
      },
    };
  }

  localDirectory(prefix: string): Promise<string> {
    checkKey(prefix);
    return this.cache.acquire(prefix, (folder) => this.download(prefix, folder));
  }

  releaseDirectory(prefix: string): void {
    this.cache.release(prefix);
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkKey(prefix);
    // Records first: from here on nothing under the prefix is visible, even if the rest fails half-way.
    await this.deleteKeys([COMMITS + prefix]);
    await this.deleteListed(`${COMMITS}${prefix}/`);
    await this.deleteKeys([prefix]);
    await this.deleteListed(`${prefix}/`);
    await this.cache.remove(prefix);
  }

  async presignedGetUrl(key: string, expiresInSeconds: number): Promise<string> {
    checkKey(key);
    // A shorter link than asked would make the record's `expires_at` a lie: refuse instead of cutting it.
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS)
      throw new FxError(
        StorageErrorCode.presignTtlInvalid,
        `an S3 presigned URL lives 1 to ${MAX_PRESIGN_SECONDS} whole seconds, got ${expiresInSeconds}`,
      );
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** One PUT for a body up to one part (5 MiB, S3's minimum), a multipart upload (two parts at a time) above. */
  private async upload(key: string, body: Uint8Array | Readable): Promise<void> {
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentTypeOf(key) },
      queueSize: 2,
    }).done();
  }

  private async put(key: string, body: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/json' }),
    );
  }

  /** Whether a commit record covers `key`: its own, or one of a prefix of it. */
  private async isCommitted(key: string): Promise<boolean> {
    const segments = key.split('/');
    const records = segments.map((_, index) => COMMITS + segments.slice(0, index + 1).join('/'));
    const found = await Promise.all(
      records.map((record) =>
        missingAsUndefined(this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: record }))),
      ),
    );
    return found.some((head) => head !== undefined);
  }

  /**
   * The object's bytes, or one range of them. What the answer says it holds is checked, and the body cut to the
   * range's length: some S3-compatible servers answer `bytes=0-0` with the whole file.
   */
  private async *objectBytes(key: string, range: ByteRange | undefined): AsyncGenerator<Uint8Array> {
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    const body = object.Body as Readable;
    if (!range) return yield* body;
    if (!object.ContentRange?.startsWith(`bytes ${range.start}-`)) {
      body.destroy();
      throw new FxError(
        StorageErrorCode.rangeInvalid,
        `S3 answered bytes ${range.start}-${range.end} of ${JSON.stringify(key)} with ${JSON.stringify(object.ContentRange ?? 'the whole object')}`,
      );
    }
    let left = range.end - range.start + 1;
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
      left -= part.byteLength;
      yield part;
      if (left === 0) return;
    }
  }

  /** Downloads the files a committed tree's record lists into `folder`; false when there is no such tree. */
  private async download(prefix: string, folder: string): Promise<boolean> {
    const record = await missingAsUndefined(
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: COMMITS + prefix })),
    );
    if (!record?.Body) return false;
    const { files } = JSON.parse(await record.Body.transformToString()) as { files: string[] };
    for (const path of files) {
      const file = inside(folder, path);
      await mkdir(dirname(file), { recursive: true });
      await pipeline(this.objectBytes(`${prefix}/${path}`, undefined), createWriteStream(file, { flags: 'wx' }));
    }
    return true;
  }

  /**
   * Deletes every key under `prefix`, a page at a time. Pages follow `Marker` (the last key seen) of the
   * original listing call, which every S3-compatible server answers alike; V2's continuation tokens are opaque
   * and not made right by all of them (s3rver's cannot be made on Node's OpenSSL 3).
   */
  private async deleteListed(prefix: string): Promise<void> {
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsCommand({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: this.pageSize,
          ...(marker === undefined ? {} : { Marker: marker }),
        }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
      await this.deleteKeys(keys);
      if (!page.IsTruncated || keys.length === 0) return;
      marker = keys.at(-1);
    }
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += this.pageSize) {
      const batch = keys.slice(start, start + this.pageSize);
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = answer.Errors?.[0];
      if (failed)
        throw new FxError(
          StorageErrorCode.deleteFailed,
          `S3 did not delete ${JSON.stringify(failed.Key)}: ${failed.Code} ${failed.Message}`,
        );
    }
  }
}

/**
 * Refuses keys S3 would store but a file system, a URL or a reader could take for something else: empty, `.`
 * or `..` segments, a leading `/`, control characters, and storage's own records.
 */
function checkKey(key: string): string {
  const segments = key.split('/');
  const control = /[\u0000-\u001f\u007f]/.test(key);
  if (control || key.startsWith(COMMITS) || segments.some((part) => part === '' || part === '.' || part === '..'))
    throw keyError(key);
  return key;
}

/** The answer, or undefined for S3's "no such key" (404). */
async function missingAsUndefined<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
    throw error;
  }
}
