// The Node credentials file: private, atomic, keeps what it does not know, refuses (and keeps) a broken file.
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { AuthErrorCode } from '../../src/auth/errors.js';
import { defaultCredentialsPath, FileCredentialStore } from '../../src/auth/node/file-store.js';
import { isFxError } from '../../src/runtime/errors.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fx-credentials-'));
  path = join(dir, '.fx', 'credentials');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const isCode = (code: string) => (error: unknown) => isFxError(error, code);

test('the default path is ~/.fx/credentials', () => {
  assert.equal(defaultCredentialsPath('/home/ann'), join('/home/ann', '.fx', 'credentials'));
});

test('a new file is 0600 in a new 0700 folder, and stays 0600 when it was wider', async () => {
  const store = new FileCredentialStore(path);
  await store.set('api-key', 'fx_live_1');
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.equal((await stat(join(dir, '.fx'))).mode & 0o777, 0o700);
  await chmod(path, 0o644);
  await store.set('api-key', 'fx_live_2');
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.equal(await store.get('api-key'), 'fx_live_2');
});

test('keys this version does not know survive every write; delete removes only its key', async () => {
  await mkdir(join(dir, '.fx'));
  await writeFile(path, JSON.stringify({ 'from-the-future': { nested: [1, 2] }, 'api-key': 'old' }));
  const store = new FileCredentialStore(path);
  await store.set('api-key', 'new');
  await store.delete('api-url');
  await store.update<number>('counter', (value) => (value ?? 0) + 1);
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), {
    'from-the-future': { nested: [1, 2] },
    'api-key': 'new',
    counter: 1,
  });
  await store.delete('api-key');
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { 'from-the-future': { nested: [1, 2] }, counter: 1 });
});

test('writes replace the file whole (temporary file + rename): no temporary file is left, concurrent updates all land', async () => {
  const store = new FileCredentialStore(path);
  await Promise.all(
    Array.from({ length: 20 }, (_, index) => store.update<number[]>('list', (list = []) => [...list, index])),
  );
  assert.deepEqual(
    ((await store.get<number[]>('list')) ?? []).sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, index) => index),
  );
  assert.deepEqual(await readdir(join(dir, '.fx')), ['credentials']);
});

test('a reader never sees a half-written file while writes go on', async () => {
  const store = new FileCredentialStore(path);
  await store.set('big', 'x'.repeat(200_000));
  let writing = true;
  const writes = (async () => {
    for (let index = 0; index < 30; index += 1) await store.set('big', String(index).repeat(200_000));
    writing = false;
  })();
  let reads = 0;
  while (writing) {
    JSON.parse(await readFile(path, 'utf8'));
    reads += 1;
  }
  await writes;
  assert.ok(reads > 0);
});

// Root writes into a read-only folder anyway: there the failure cannot be provoked this way.
const root = process.getuid?.() === 0;
test(
  'a write that cannot land leaves the old file as it was and no temporary file',
  { skip: root && 'running as root' },
  async () => {
    const store = new FileCredentialStore(path);
    await store.set('api-key', 'kept');
    const before = await readFile(path, 'utf8');
    await chmod(join(dir, '.fx'), 0o500);
    try {
      await assert.rejects(store.set('api-key', 'lost'), isCode(AuthErrorCode.credentialsFileUnavailable));
    } finally {
      await chmod(join(dir, '.fx'), 0o700);
    }
    assert.equal(await readFile(path, 'utf8'), before);
    assert.deepEqual(await readdir(join(dir, '.fx')), ['credentials']);
  },
);

for (const [name, content] of [
  ['not JSON', '{"api-key": "abc"'],
  ['JSON but an array', '["api-key"]'],
  ['JSON but a string', '"api-key"'],
  ['JSON null', 'null'],
  ['empty', ''],
] as const) {
  test(`a corrupt file (${name}) → auth_credentials_file_corrupt on read and write, and the file is untouched`, async () => {
    await mkdir(join(dir, '.fx'));
    await writeFile(path, content);
    const store = new FileCredentialStore(path);
    await assert.rejects(store.get('api-key'), isCode(AuthErrorCode.credentialsFileCorrupt));
    await assert.rejects(store.set('api-key', 'x'), isCode(AuthErrorCode.credentialsFileCorrupt));
    assert.equal(await readFile(path, 'utf8'), content);
  });
}

test('a folder where the file should be → auth_credentials_file_unavailable', async () => {
  await mkdir(path, { recursive: true });
  await assert.rejects(new FileCredentialStore(path).get('api-key'), isCode(AuthErrorCode.credentialsFileUnavailable));
});
