// The project server the render browser loads from: content types, Range requests, nothing outside the project,
// and nothing at all for whoever does not know its random base path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startProjectServer, type ProjectServer } from '../../src/render/project-server.js';
import { tempDir } from './helpers.js';

let server: ProjectServer;
let cleanup: () => Promise<void>;
let project: string;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));

before(async () => {
  const dir = await tempDir();
  cleanup = dir.cleanup;
  project = join(dir.path, 'project');
  const dist = join(dir.path, 'dist');
  await mkdir(join(project, 'media'), { recursive: true });
  await mkdir(dist);
  await writeFile(join(dir.path, 'secret.txt'), 'TOP-SECRET');
  await writeFile(join(project, 'index.html'), '<p>hi</p>');
  await writeFile(join(project, 'media', 'clip.mp4'), BYTES);
  await writeFile(join(project, 'media', 'a b.webm'), 'x');
  for (const name of ['font.woff2', 'tone.wav', 'tone.mp3', 'pic.svg', 'data.bin'])
    await writeFile(join(project, name), 'x');
  await writeFile(join(dist, 'fx.iife.js'), '/* compiler */');
  await writeFile(join(dist, 'fx-runtime.js'), '/* runtime */');
  await symlink(join(dir.path, 'secret.txt'), join(project, 'link.txt'));
  server = await startProjectServer(project, dist);
});

after(async () => {
  await server.close();
  await cleanup();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The server's secret base path, e.g. `/3f…9a` (no trailing slash). */
const base = () => new URL(server.baseUrl).pathname.slice(0, -1);

/** A raw request under the base path, so paths reach the server exactly as written (no normalisation of `..`). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return getRaw(`${base()}${path}`, headers, method);
}

function getRaw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('listens on 127.0.0.1 on a random port, under a random base path of 128 bits', () => {
  assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/$/);
  assert.equal(server.url('/index.html'), `${server.baseUrl}index.html`);
  assert.equal(server.url('__fx/fx.iife.js'), `${server.baseUrl}__fx/fx.iife.js`);
});

test('two servers of the same project have different base paths', async () => {
  const other = await startProjectServer(project, join(project, '..', 'dist'));
  try {
    assert.notEqual(new URL(other.baseUrl).pathname, base() + '/');
  } finally {
    await other.close();
  }
});

const unknowing = [
  '/index.html',
  '/__fx/fx.iife.js',
  '/__fx/compile.html',
  `/${'0'.repeat(32)}/index.html`,
  '/media/clip.mp4',
];
for (const path of unknowing) {
  test(`answers 404 to ${path} without the base path`, async () => {
    const answer = await getRaw(path);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.toString(), 'not found');
  });
}

test('a path that climbs out of the base path is not found', async () => {
  assert.equal((await getRaw(`${base()}/../index.html`)).status, 404);
  assert.equal((await getRaw(`${base()}%2f..%2findex.html`)).status, 404);
});

test('refuses proxy requests: an absolute-form target (400) and CONNECT (connection closed)', async () => {
  assert.equal((await getRaw(`http://example.com${base()}/index.html`)).status, 400);
  const { port } = new URL(server.origin);
  const closed = await new Promise<string>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'CONNECT', path: 'example.com:443' });
    req.on('connect', (response) => resolve(`connected ${response.statusCode}`));
    req.on('response', (response) => resolve(`answered ${response.statusCode}`));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
  assert.equal(closed, 'ECONNRESET');
});

const types: [string, string][] = [
  ['/index.html', 'text/html; charset=utf-8'],
  ['/media/clip.mp4', 'video/mp4'],
  ['/media/a%20b.webm', 'video/webm'],
  ['/font.woff2', 'font/woff2'],
  ['/tone.wav', 'audio/wav'],
  ['/tone.mp3', 'audio/mpeg'],
  ['/pic.svg', 'image/svg+xml'],
  ['/data.bin', 'application/octet-stream'],
  ['/__fx/fx.iife.js', 'text/javascript; charset=utf-8'],
  ['/__fx/fx-runtime.js', 'text/javascript; charset=utf-8'],
];
for (const [path, type] of types) {
  test(`serves ${path} as ${type}`, async () => {
    const answer = await get(path);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], type);
  });
}

test('answers a Range request with 206 and exactly those bytes', async () => {
  const answer = await get('/media/clip.mp4', { range: 'bytes=100-199' });
  assert.equal(answer.status, 206);
  assert.equal(answer.headers['content-range'], 'bytes 100-199/1000');
  assert.equal(answer.headers['content-length'], '100');
  assert.deepEqual(answer.body, BYTES.subarray(100, 200));
});

test('answers an open-ended and a suffix range', async () => {
  assert.deepEqual((await get('/media/clip.mp4', { range: 'bytes=990-' })).body, BYTES.subarray(990));
  const suffix = await get('/media/clip.mp4', { range: 'bytes=-5' });
  assert.equal(suffix.headers['content-range'], 'bytes 995-999/1000');
  assert.deepEqual(suffix.body, BYTES.subarray(995));
});

test('answers an unsatisfiable range with 416', async () => {
  const answer = await get('/media/clip.mp4', { range: 'bytes=5000-' });
  assert.equal(answer.status, 416);
  assert.equal(answer.headers['content-range'], 'bytes */1000');
});

test('advertises ranges on full responses and answers HEAD without a body', async () => {
  const answer = await get('/media/clip.mp4', {}, 'HEAD');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['accept-ranges'], 'bytes');
  assert.equal(answer.headers['content-length'], '1000');
  assert.equal(answer.body.length, 0);
});

test('refuses methods other than GET and HEAD', async () => {
  assert.equal((await get('/index.html', {}, 'POST')).status, 405);
  assert.equal((await get('/index.html', {}, 'DELETE')).status, 405);
});

const escapes: [string, number][] = [
  // URL parsing already removes `..` and `%2e%2e` segments: these ask for /secret.txt inside the project.
  ['/../secret.txt', 404],
  ['/%2e%2e/secret.txt', 404],
  ['/media/%2e%2e/%2e%2e/secret.txt', 404],
  // An encoded slash survives URL parsing and is decoded after: the resolved path leaves the project.
  ['/..%2fsecret.txt', 403],
  ['/..%5csecret.txt', 404],
  ['/link.txt', 403],
  ['/%00', 400],
  ['/%E0%A4%A', 400],
];
for (const [path, status] of escapes) {
  test(`never serves outside the project: ${path} → ${status}`, async () => {
    const answer = await get(path);
    assert.equal(answer.status, status);
    assert.ok(!answer.body.toString().includes('TOP-SECRET'), 'the secret must not leak');
  });
}

test('lists no directories and serves nothing unknown under /__fx/', async () => {
  assert.equal((await get('/media/')).status, 404);
  assert.equal((await get('/')).status, 404);
  assert.equal((await get('/__fx/other.js')).status, 404);
  assert.equal((await get('/__fx/compiled/nothing.html')).status, 404);
});

test('serves compiled documents it was given, and maps its URLs back to project files', async () => {
  const url = server.addDocument('doc-1', '<!doctype html><p>compiled</p>');
  assert.equal(url, `${server.baseUrl}__fx/compiled/doc-1.html`);
  const answer = await get('/__fx/compiled/doc-1.html');
  assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(answer.body.toString(), /compiled/);
  assert.equal(await server.localFile(server.url('media/a%20b.webm')), join(project, 'media', 'a b.webm'));
  assert.equal(await server.localFile(server.url('link.txt')), undefined);
  assert.equal(await server.localFile(`${server.baseUrl}%2e%2e/secret.txt`), undefined);
  assert.equal(await server.localFile(`https://example.com${base()}/media/clip.mp4`), undefined);
  assert.equal(await server.localFile(server.url('__fx/fx.iife.js')), undefined);
  assert.equal(await server.localFile(`${server.origin}/media/clip.mp4`), undefined, 'outside the base path');
});
