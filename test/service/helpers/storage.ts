/**
 * Where the service tests keep files: local disk under the data folder (default), or a fresh bucket of a real S3
 * server (s3rver, one per test process) with `FX_TEST_STORAGE=s3` (the PostgreSQL stage of `npm test`: PostgreSQL
 * + S3 is the scale-out deployment). Tests read stored files through the storage interface, and list what is
 * stored — committed or not, so a half-written tree shows — through `storedKeys`.
 */
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BlobStorage } from '../../../src/service/storage/blob-storage.js';
import { LocalBlobStorage } from '../../../src/service/storage/blob-storage.local.js';
import { S3BlobStorage } from '../../../src/service/storage/blob-storage.s3.js';
import { S3_ENV, type S3Settings } from '../../../src/service/storage/s3-settings.js';
import { sharedS3Server } from '../../fixtures/s3-server.js';

export const TEST_STORAGE_ENV = 'FX_TEST_STORAGE';
export const onS3 = process.env[TEST_STORAGE_ENV] === 's3';

/** Where local storage keeps its half-written files; S3 keeps its commit records under `.fx-commits/`. */
const LOCAL_STAGING = '.tmp';
const S3_COMMITS = '.fx-commits/';

let buckets = 0;

/** A fresh bucket's settings on S3; undefined on local disk. */
export async function newTestBucket(): Promise<S3Settings | undefined> {
  if (!onS3) return undefined;
  return (await sharedS3Server()).createBucket(`fx-test-${process.pid}-${++buckets}`);
}

/** The storage a service of this data folder and bucket uses (what `createService` builds by default on disk). */
export function testStorage(dataDir: string, s3: S3Settings | undefined): BlobStorage {
  return s3
    ? new S3BlobStorage(s3, { cacheDir: join(dataDir, 's3-cache') })
    : new LocalBlobStorage(join(dataDir, 'blobs'));
}

/** The `FX_SERVICE_S3_*` variables of a bucket, for a service in a child process. */
export function s3Env(s3: S3Settings | undefined): NodeJS.ProcessEnv {
  if (!s3) return {};
  return {
    [S3_ENV.endpoint]: s3.endpoint,
    [S3_ENV.bucket]: s3.bucket,
    [S3_ENV.region]: s3.region,
    [S3_ENV.accessKeyId]: s3.credentials!.accessKeyId,
    [S3_ENV.secretAccessKey]: s3.credentials!.secretAccessKey,
    [S3_ENV.forcePathStyle]: s3.forcePathStyle ? '1' : '0',
  };
}

/** A stored object: its key and size. */
export interface StoredKey {
  readonly key: string;
  readonly size: number;
}

/**
 * Everything stored under `prefix` (a key prefix such as `renders/rnd_1/`), sorted, whether readers see it or not:
 * on disk the files under `blobs/`, in S3 the bucket's objects.
 */
export async function storedKeys(dataDir: string, s3: S3Settings | undefined, prefix: string): Promise<StoredKey[]> {
  if (!s3) {
    const root = join(dataDir, 'blobs');
    const entries = await readdir(join(root, prefix), { recursive: true, withFileTypes: true }).catch(() => []);
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
    const keys = await Promise.all(
      files.map(async (file) => ({ key: relative(root, file), size: (await stat(file)).size })),
    );
    return keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  const storage = testStorage(dataDir, s3) as S3BlobStorage;
  const keys: StoredKey[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = await storage.client.send(
      new ListObjectsCommand({
        Bucket: s3.bucket,
        Prefix: prefix,
        ...(marker === undefined ? {} : { Marker: marker }),
      }),
    );
    for (const { Key, Size } of page.Contents ?? []) if (Key !== undefined) keys.push({ key: Key, size: Size ?? 0 });
    if (!page.IsTruncated || !page.Contents?.length) break;
    marker = keys.at(-1)!.key;
  }
  storage.client.destroy();
  return keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The stored assets and anything half-written: `assets/<id>` per stored asset tree, plus on disk the staging
 * folder's entries and in S3 the commit records of assets — `[]` when nothing of an upload is left.
 */
export async function storedAssetEntries(dataDir: string, s3: S3Settings | undefined): Promise<string[]> {
  if (!s3) {
    const list = async (folder: string) =>
      (await readdir(join(dataDir, 'blobs', folder)).catch(() => [] as string[])).map((name) => `${folder}/${name}`);
    return [...(await list('assets')), ...(await list(LOCAL_STAGING))];
  }
  const topOf = (key: string, depth: number) => key.split('/').slice(0, depth).join('/');
  const assets = (await storedKeys(dataDir, s3, 'assets/')).map(({ key }) => topOf(key, 2));
  const records = (await storedKeys(dataDir, s3, `${S3_COMMITS}assets/`)).map(({ key }) => topOf(key, 3));
  return [...new Set([...assets, ...records])].sort();
}
