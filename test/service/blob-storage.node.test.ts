// The BlobStorage contract, run against both implementations: the local disk and an S3 bucket (s3rver, spoken to
// through the AWS SDK). Same cases, same answers; S3-only parts (commit records, presigned URLs) follow.
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import type { ByteRange } from '../../src/render/byte-range.js';
import { isFxError } from '../../src/runtime/errors.js';
import { StorageErrorCode, type BlobStorage, type TreeFile } from '../../src/service/storage/blob-storage.js';
import { LocalBlobStorage } from '../../src/service/storage/blob-storage.local.js';
import { S3BlobStorage } from '../../src/service/storage/blob-storage.s3.js';
import { startS3Server, type TestS3Server } from '../fixtures/s3-server.js';

const text = (value: string) => new TextEncoder().encode(value);
const decode = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));
/** A fresh prefix per test: ids are never reused, as in the service. */
const fresh = (kind = 'assets') => `${kind}/t${randomBytes(6).toString('hex')}`;
/** Keys S3 takes as they are and file systems too; each one must come back byte for byte. */
const ODD_NAMES = ['a b/ü €.txt', "q'uote&amp.txt", '%2F not a slash.txt', 'plus+sign?#.txt', 'emoji 😀/x.txt'];
const MiB = 1024 * 1024;

async function* chunks(...parts: (Uint8Array | Error | Promise<void>)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) {
    if (part instanceof Error) throw part;
    if (part instanceof Promise) await part;
    else yield part;
  }
}

async function filesUnder(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((found) => found.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files[relative(folder, path)] = await readFile(path, 'utf8');
  }
  return files;
}

async function expectCode(promise: Promise<unknown> | (() => unknown), code: string): Promise<void> {
  await assert.rejects(
    async () => (typeof promise === 'function' ? promise() : promise),
    (error: unknown) => isFxError(error, code),
  );
}

interface Backend {
  readonly name: string;
  storage: BlobStorage;
}

let s3: TestS3Server;
let scratch: string;
const local: Backend = { name: 'local disk', storage: undefined! };
const bucket: Backend = { name: 'S3 (s3rver)', storage: undefined! };
let s3Storage: S3BlobStorage;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'fx-blob-contract-'));
  s3 = await startS3Server();
  local.storage = new LocalBlobStorage(join(scratch, 'blobs'));
  // Two keys a page: the listing and deleting of any tree with more files goes through several pages.
  s3Storage = new S3BlobStorage(s3.settings, { cacheDir: join(scratch, 's3-cache'), pageSize: 2 });
  bucket.storage = s3Storage;
});

after(async () => {
  s3Storage?.client.destroy();
  await s3?.close();
  await rm(scratch, { recursive: true, force: true });
});

for (const backend of [local, bucket]) {
  describe(`BlobStorage contract: ${backend.name}`, () => {
    test('a tree comes back file by file, nested folders and odd names included', async () => {
      const { storage } = backend;
      const prefix = fresh();
      const files = ['index.html', 'media/clip one.webm', ...ODD_NAMES];
      await storage.putTree(
        prefix,
        files.map((path) => ({ path, content: text(`<${path}>`) })),
      );
      for (const path of files) assert.equal(decode(await storage.read(`${prefix}/${path}`)), `<${path}>`, path);
      assert.equal((await storage.open(`${prefix}/index.html`))?.size, '<index.html>'.length);
    });

    test('missing keys, folders and deleted trees hold no file', async () => {
      const { storage } = backend;
      const prefix = fresh();
      await storage.putTree(prefix, [{ path: 'sub/a.txt', content: text('a') }]);
      for (const key of [`${prefix}/nope.txt`, `${prefix}/sub`, prefix, `${fresh()}/index.html`]) {
        assert.equal(await storage.read(key), undefined, key);
        assert.equal(await storage.open(key), undefined, key);
      }
    });

    test('a tree is invisible while it is written, and whole once putTree resolved', async () => {
      const { storage } = backend;
      const prefix = fresh();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let secondStarted!: () => void;
      const started = new Promise<void>((resolve) => (secondStarted = resolve));
      const files: TreeFile[] = [
        { path: 'first.txt', content: text('first') },
        {
          path: 'second.txt',
          content: (async function* () {
            secondStarted();
            await gate;
            yield text('second');
          })(),
        },
      ];
      const writing = storage.putTree(prefix, files);
      await started;
      assert.equal(await storage.read(`${prefix}/first.txt`), undefined, 'first file hidden mid-tree');
      release();
      await writing;
      assert.equal(decode(await storage.read(`${prefix}/first.txt`)), 'first');
      assert.equal(decode(await storage.read(`${prefix}/second.txt`)), 'second');
    });

    test('a content failing mid-tree stores nothing and rethrows its error', async () => {
      const { storage } = backend;
      const prefix = fresh();
      const failure = new Error('entry failed its checks');
      await assert.rejects(
        storage.putTree(prefix, [
          { path: 'a.txt', content: text('a') },
          { path: 'deep/b.txt', content: chunks(text('half'), failure) },
          { path: 'c.txt', content: text('never read') },
        ]),
        (error) => error === failure,
      );
      for (const path of ['a.txt', 'deep/b.txt', 'c.txt'])
        assert.equal(await storage.read(`${prefix}/${path}`), undefined);
      assert.equal(existsSync(await storage.localDirectory(prefix)), false, 'no local tree either');
    });

    test('byte ranges: first, last, middle and whole; ranges outside the file are refused', async () => {
      const { storage } = backend;
      const prefix = fresh();
      await storage.putTree(prefix, [
        { path: 'digits.txt', content: text('0123456789') },
        { path: 'empty.txt', content: new Uint8Array(0) },
      ]);
      const file = (await storage.open(`${prefix}/digits.txt`))!;
      const bytes = async (range?: ByteRange) => (await buffer(file.stream(range))).toString();
      assert.equal(await bytes(), '0123456789');
      assert.equal(await bytes({ start: 0, end: 0 }), '0');
      assert.equal(await bytes({ start: 9, end: 9 }), '9');
      assert.equal(await bytes({ start: 3, end: 6 }), '3456');
      assert.equal(await bytes({ start: 0, end: 9 }), '0123456789');
      const hostile = [
        { start: 10, end: 10 },
        { start: 0, end: 10 },
        { start: 5, end: 4 },
        { start: -1, end: 2 },
        { start: Number.NaN, end: 3 },
        { start: 0.5, end: 3 },
        { start: 0, end: Number.MAX_SAFE_INTEGER + 2 },
      ];
      for (const range of hostile) await expectCode(() => file.stream(range), StorageErrorCode.rangeInvalid);
      const empty = (await storage.open(`${prefix}/empty.txt`))!;
      assert.equal(empty.size, 0);
      assert.equal((await buffer(empty.stream())).length, 0);
      await expectCode(() => empty.stream({ start: 0, end: 0 }), StorageErrorCode.rangeInvalid);
    });

    test('keys that leave their folder are refused', async () => {
      const { storage } = backend;
      for (const key of ['../outside', 'assets/../../outside']) {
        await expectCode(storage.read(key), StorageErrorCode.keyInvalid);
        await expectCode(storage.deletePrefix(key), StorageErrorCode.keyInvalid);
      }
    });

    test('putFile moves a local file in (6 MiB: a multipart upload on S3), ranges across the part boundary', async () => {
      const { storage } = backend;
      const key = `${fresh('renders')}/video.mp4`;
      const source = join(scratch, `out-${randomBytes(4).toString('hex')}.mp4`);
      const content = randomBytes(6 * MiB);
      await writeFile(source, content);
      await storage.putFile(key, source);
      assert.equal(existsSync(source), false, 'the source was moved');
      const file = (await storage.open(key))!;
      assert.equal(file.size, content.length);
      const across = { start: 5 * MiB - 2, end: 5 * MiB + 1 };
      assert.deepEqual(await buffer(file.stream(across)), content.subarray(across.start, across.end + 1));
      assert.ok((await buffer(file.stream())).equals(content));
    });

    test('localDirectory holds the tree for the renderer, the same folder each time', async () => {
      const { storage } = backend;
      const prefix = fresh();
      await storage.putTree(prefix, [
        { path: 'index.html', content: text('<html>') },
        { path: 'css/site.css', content: chunks(text('body{'), text('}')) },
        { path: ODD_NAMES[0]!, content: text('odd') },
      ]);
      const folder = await storage.localDirectory(prefix);
      assert.deepEqual(await filesUnder(folder), {
        'index.html': '<html>',
        [join('css', 'site.css')]: 'body{}',
        [join(...ODD_NAMES[0]!.split('/'))]: 'odd',
      });
      assert.equal(await storage.localDirectory(prefix), folder);
    });

    test('deletePrefix removes a render whole (tree, outputs, more than a page) and nothing beside it', async () => {
      const { storage } = backend;
      const render = fresh('renders');
      const sibling = `${render}0`; // shares the string prefix, not the folder
      await storage.putTree(
        `${render}/project`,
        Array.from({ length: 5 }, (_, index) => ({ path: `f${index}.txt`, content: text(String(index)) })),
      );
      const source = join(scratch, `thumb-${randomBytes(4).toString('hex')}.jpg`);
      await writeFile(source, 'jpeg');
      await storage.putFile(`${render}/thumbnail.jpg`, source);
      await storage.putTree(sibling, [{ path: 'keep.txt', content: text('keep') }]);
      await storage.localDirectory(`${render}/project`);

      await storage.deletePrefix(render);
      assert.equal(await storage.read(`${render}/project/f0.txt`), undefined);
      assert.equal(await storage.open(`${render}/thumbnail.jpg`), undefined);
      assert.equal(existsSync(await storage.localDirectory(`${render}/project`)), false);
      assert.equal(decode(await storage.read(`${sibling}/keep.txt`)), 'keep');
      await storage.deletePrefix(render); // nothing left: still fine
    });
  });
}

describe('S3 only', () => {
  const keysUnder = async (prefix: string) =>
    (
      (await s3Storage.client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: prefix })))
        .Contents ?? []
    ).map((object) => object.Key);

  test('a failed tree leaves no object behind, and a deleted render no object or commit record', async () => {
    const prefix = fresh();
    await assert.rejects(
      s3Storage.putTree(prefix, [
        { path: 'a.txt', content: text('a') },
        { path: 'b.txt', content: chunks(new Error('bad entry')) },
      ]),
    );
    assert.deepEqual(await keysUnder(prefix), []);
    const render = fresh('renders');
    // Five files at two keys a page: deleting them takes three listings.
    await s3Storage.putTree(
      `${render}/project`,
      Array.from({ length: 5 }, (_, index) => ({ path: `f${index}.txt`, content: text(String(index)) })),
    );
    await s3Storage.deletePrefix(render);
    assert.deepEqual([...(await keysUnder(render)), ...(await keysUnder(`.fx-commits/${render}`))], []);
  });

  test('an object no commit record covers (a crash mid-tree) is not read', async () => {
    const prefix = fresh();
    await s3Storage.client.send(
      new PutObjectCommand({ Bucket: s3.settings.bucket, Key: `${prefix}/index.html`, Body: 'orphan' }),
    );
    assert.equal(await s3Storage.read(`${prefix}/index.html`), undefined);
    assert.equal(await s3Storage.open(`${prefix}/index.html`), undefined);
    assert.equal(existsSync(await s3Storage.localDirectory(prefix)), false);
  });

  test("storage's own records and malformed keys are refused", async () => {
    for (const key of ['.fx-commits/assets/x', 'assets//x', 'assets/./x', '/assets/x', 'assets/x/', 'a\u0000b', '']) {
      await expectCode(s3Storage.read(key), StorageErrorCode.keyInvalid);
      await expectCode(s3Storage.putTree(key, []), StorageErrorCode.keyInvalid);
    }
  });

  test('putFile goes multipart above 5 MiB and in one PUT below', async () => {
    const commands: string[] = [];
    s3Storage.client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName ?? '');
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
    try {
      const source = join(scratch, 'sizes.bin');
      await writeFile(source, randomBytes(6 * MiB));
      await s3Storage.putFile(`${fresh('renders')}/video.mp4`, source);
      const multipart = commands.filter((name) => name === 'CreateMultipartUploadCommand').length;
      assert.equal(multipart, 1);
      assert.equal(commands.filter((name) => name === 'UploadPartCommand').length, 2);
      commands.length = 0;
      await writeFile(source, randomBytes(1024));
      await s3Storage.putFile(`${fresh('renders')}/thumbnail.jpg`, source);
      assert.deepEqual(
        commands.filter((name) => /Multipart|UploadPart/.test(name)),
        [],
      );
    } finally {
      s3Storage.client.middlewareStack.remove('recordCommands');
    }
  });

  test('a presigned URL serves the file, and byte ranges, to a request without credentials', async () => {
    const key = `${fresh('renders')}/video.mp4`;
    const source = join(scratch, 'presign.mp4');
    await writeFile(source, '0123456789');
    await s3Storage.putFile(key, source);
    const url = await s3Storage.presignedGetUrl(key, 60);
    assert.equal(new URL(url).origin, s3.endpoint);
    assert.match(url, /X-Amz-Signature=/);
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/mp4');
    assert.equal(await whole.text(), '0123456789');
    const part = await fetch(url, { headers: { range: 'bytes=2-4' } });
    assert.equal(part.status, 206);
    assert.equal(await part.text(), '234');
    for (const seconds of [0, 1.5, 604_801, Number.NaN])
      await expectCode(s3Storage.presignedGetUrl(key, seconds), StorageErrorCode.presignTtlInvalid);
    assert.match(await s3Storage.presignedGetUrl(key, 604_800), /X-Amz-Expires=604800/);
    // (s3rver does not check SigV4 signatures, so tampering is S3's own test, not one we can run here.)
  });
});
