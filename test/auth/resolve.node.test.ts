// Headless credentials in Node: CLOUD_API_KEY, then RENDER_API_KEY, then the credentials file; CLOUD_API_URL.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { AuthErrorCode } from '../../src/auth/errors.js';
import { DEFAULT_API_URL, resolveNodeCredentials } from '../../src/auth/node/resolve.js';
import { isFxError } from '../../src/runtime/errors.js';
import { DEFAULT_PORT } from '../../src/service/main-defaults.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fx-resolve-'));
  path = join(dir, 'credentials');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const file = (values: unknown) => writeFile(path, typeof values === 'string' ? values : JSON.stringify(values));
const resolve = (env: Record<string, string | undefined>) => resolveNodeCredentials({ env, path });

test('the default URL is the reference service on its default port', () => {
  assert.equal(DEFAULT_API_URL, `http://127.0.0.1:${DEFAULT_PORT}`);
});

test('order: CLOUD_API_KEY, then RENDER_API_KEY, then the file', async () => {
  await file({ 'api-key': 'from-file' });
  assert.deepEqual((await resolve({ CLOUD_API_KEY: 'cloud', RENDER_API_KEY: 'render' })).apiKey, {
    value: 'cloud',
    source: 'CLOUD_API_KEY',
  });
  assert.deepEqual((await resolve({ RENDER_API_KEY: 'render' })).apiKey, { value: 'render', source: 'RENDER_API_KEY' });
  assert.deepEqual((await resolve({ CLOUD_API_KEY: '', RENDER_API_KEY: 'render' })).apiKey, {
    value: 'render',
    source: 'RENDER_API_KEY',
  });
  assert.deepEqual((await resolve({})).apiKey, { value: 'from-file', source: 'file' });
});

test('nothing anywhere (no file): no key, the default URL', async () => {
  const resolved = await resolve({});
  assert.equal(resolved.apiKey, undefined);
  assert.equal(resolved.apiUrl, DEFAULT_API_URL);
  assert.equal(resolved.store.path, path);
});

test('URL: CLOUD_API_URL, else the file’s api-url with the file’s key, else the default', async () => {
  await file({ 'api-key': 'k', 'api-url': 'https://render.example.com/' });
  assert.equal((await resolve({ CLOUD_API_URL: 'http://localhost:9000/' })).apiUrl, 'http://localhost:9000');
  assert.equal((await resolve({})).apiUrl, 'https://render.example.com');
  assert.equal((await resolve({ CLOUD_API_KEY: 'k2' })).apiUrl, DEFAULT_API_URL);
});

test('a key in the environment: a corrupt file is not even read', async () => {
  await file('{broken');
  assert.equal((await resolve({ CLOUD_API_KEY: 'k' })).apiKey?.source, 'CLOUD_API_KEY');
  await assert.rejects(resolve({}), (error: unknown) => isFxError(error, AuthErrorCode.credentialsFileCorrupt));
});

test('hostile values → typed errors naming where they came from', async () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ CLOUD_API_KEY: 'two words' }, AuthErrorCode.apiKeyInvalid, /"CLOUD_API_KEY"/],
    [{ RENDER_API_KEY: 'line\r\nX-Injected: 1' }, AuthErrorCode.apiKeyInvalid, /"RENDER_API_KEY"/],
    [
      { CLOUD_API_KEY: 'k', CLOUD_API_URL: 'http://render.example.com' },
      AuthErrorCode.optionInvalid,
      /"CLOUD_API_URL"/,
    ],
    [{ CLOUD_API_KEY: 'k', CLOUD_API_URL: 'file:///etc/passwd' }, AuthErrorCode.optionInvalid, /"CLOUD_API_URL"/],
  ];
  for (const [env, code, message] of cases) {
    await assert.rejects(
      resolve(env),
      (error: unknown) => isFxError(error, code) && message.test((error as Error).message),
      JSON.stringify(env),
    );
  }
  await mkdir(dir, { recursive: true });
  await file({ 'api-key': 'has space' });
  await assert.rejects(
    resolve({}),
    (error: unknown) => isFxError(error, AuthErrorCode.apiKeyInvalid) && (error as Error).message.includes(path),
  );
});
