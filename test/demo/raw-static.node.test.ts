// npm start's composition files (scripts/raw-static.mjs): served as they are, single byte ranges for media seeking,
// nothing outside the folder.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
// @ts-expect-error -- a plain script of the repo, no types
import { rawStatic } from '../../scripts/raw-static.mjs';

const CLIP = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
let folder: string;
let server: Server;
let origin: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fx-raw-static-'));
  await writeFile(join(folder, 'clip.mp4'), CLIP);
  await writeFile(join(folder, 'empty.webm'), '');
  const serve = rawStatic(folder);
  server = createServer((request, response) => serve(request, response, () => response.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server?.close();
  await rm(folder, { recursive: true, force: true });
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${origin}${path}`, { headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
};

test('a whole file says it takes ranges', async () => {
  const { response, bytes } = await get('/clip.mp4');
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('accept-ranges'), 'bytes');
  assert.equal(response.headers.get('content-type'), 'video/mp4');
  assert.deepEqual(bytes, CLIP);
});

test('single ranges: from–to, open-ended, the last n bytes, clamped to the end', async () => {
  for (const [header, first, last] of [
    ['bytes=10-19', 10, 19],
    ['bytes=990-', 990, 999],
    ['bytes=-5', 995, 999],
    ['bytes=900-5000', 900, 999],
  ] as const) {
    const { response, bytes } = await get('/clip.mp4', { range: header });
    assert.equal(response.status, 206, header);
    assert.equal(response.headers.get('content-range'), `bytes ${first}-${last}/1000`, header);
    assert.equal(response.headers.get('content-length'), String(last - first + 1), header);
    assert.deepEqual(bytes, CLIP.subarray(first, last + 1), header);
  }
});

test('a range past the end is 416; malformed or multiple ranges get the whole file', async () => {
  const outside = await get('/clip.mp4', { range: 'bytes=1000-' });
  assert.equal(outside.response.status, 416);
  assert.equal(outside.response.headers.get('content-range'), 'bytes */1000');
  for (const header of ['bytes=a-b', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-']) {
    const { response, bytes } = await get('/clip.mp4', { range: header });
    assert.equal(response.status, 200, header);
    assert.equal(bytes.length, 1000, header);
  }
  const empty = await get('/empty.webm');
  assert.equal(empty.response.status, 200);
  assert.equal(empty.bytes.length, 0);
});

test('nothing outside the folder, no listing', async () => {
  for (const path of ['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/', '/%E0%A4%A']) {
    assert.equal((await get(path)).response.status, 404, path);
  }
});
