// The service with its files in an S3 bucket (s3rver): a project goes up, renders, and comes down through an S3
// presigned URL that the client fetches without any credential; deleting the render empties its part of the bucket.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiKeyCredentials } from '../../src/client/api-key.js';
import { FxClient } from '../../src/client/fx-client.js';
import { S3BlobStorage } from '../../src/service/storage/blob-storage.s3.js';
import { S3_ENV } from '../../src/service/storage/s3-settings.js';
import { startS3Server, type TestS3Server } from '../fixtures/s3-server.js';
import { compositionHtml, startTestService, waitFor, zipInit, type TestService } from './helpers/harness.js';
import { buildZip, projectZip } from './helpers/zip-builder.js';

let s3: TestS3Server;
let storage: S3BlobStorage;
let service: TestService;
let cacheDir: string;
/** Every request the client sent: where to, and whether it carried a credential. */
const sent: { url: string; authorization: string | null; credentials: RequestCredentials | undefined }[] = [];

before(async () => {
  s3 = await startS3Server();
  cacheDir = await mkdtemp(join(tmpdir(), 'fx-s3-cache-'));
  storage = new S3BlobStorage(s3.settings, { cacheDir });
  service = await startTestService({ storage });
});

after(async () => {
  await service?.close();
  storage?.client.destroy();
  await s3?.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const keysUnder = async (prefix: string) =>
  (
    (await storage.client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: prefix }))).Contents ?? []
  ).map((object) => object.Key!);

test('upload → render → download with S3 storage: the download link is presigned and needs no credential', async () => {
  const client = new FxClient({
    baseUrl: service.url,
    credentials: apiKeyCredentials(service.key),
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      sent.push({
        url,
        authorization: new Headers(init?.headers).get('authorization'),
        credentials: init?.credentials,
      });
      return fetch(input, init);
    },
  });
  const asset = await client.uploadAsset(projectZip({ 'index.html': compositionHtml({ width: 64, height: 36 }) }));
  assert.deepEqual(await keysUnder(`assets/${asset.asset_id}/`), [`assets/${asset.asset_id}/index.html`]);

  const queued = await client.createRender({ asset_id: asset.asset_id, fps: 4 });
  const done = await client.waitForRender(queued.render_id, { pollInterval: 50 });
  assert.equal(done.status, 'completed');
  const link = new URL(done.video_url!);
  assert.equal(link.origin, s3.endpoint, 'the link points at the bucket, not at the service');
  assert.ok(link.searchParams.has('X-Amz-Signature') && link.searchParams.get('X-Amz-Expires') === '900');

  const video = await client.downloadRender(done);
  assert.equal(video.contentType, 'video/mp4');
  const head = new TextDecoder().decode(new Uint8Array(await video.body.slice(4, 8).arrayBuffer()));
  assert.equal(head, 'ftyp');
  const toBucket = sent.filter((request) => request.url.startsWith(s3.endpoint));
  assert.ok(toBucket.length >= 1, 'the video came from the bucket');
  for (const request of toBucket) {
    assert.equal(request.authorization, null, 'no credential goes to a presigned URL');
    assert.equal(request.credentials, 'omit');
  }
  // Anyone holding the link can fetch it: no cookie, no header.
  const plain = await fetch(done.thumbnail_url!);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get('content-type'), 'image/jpeg');
  await plain.body?.cancel();

  assert.equal((await client.deleteRender(done.render_id)).deleted, true);
  assert.deepEqual(
    [...(await keysUnder(`renders/${done.render_id}`)), ...(await keysUnder(`.fx-commits/renders/${done.render_id}`))],
    [],
  );
});

test("the render.completed webhook carries the bucket's presigned links too", async () => {
  const bodies: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const { asset_id } = (await (
      await service.api('/v3/assets', zipInit(projectZip({ 'index.html': compositionHtml({ width: 64, height: 36 }) })))
    ).json()) as { asset_id: string };
    const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;
    await service.api('/v3/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id, fps: 4, callback_url: callback }),
    });
    const event = JSON.parse(await waitFor(() => bodies[0], 20_000, 'the webhook')) as {
      type: string;
      data: { video_url: string };
    };
    assert.equal(event.type, 'render.completed');
    assert.equal(new URL(event.data.video_url).origin, s3.endpoint);
    const fetched = await fetch(event.data.video_url);
    assert.equal(fetched.status, 200);
    await fetched.body?.cancel();
  } finally {
    receiver.close();
  }
});

test('a render job hands its project copy back: with no idle trees kept, the copy is gone once it finished', async () => {
  const ownCache = await mkdtemp(join(tmpdir(), 'fx-s3-cache-'));
  const lean = new S3BlobStorage(s3.settings, { cacheDir: ownCache, maxIdleTrees: 0 });
  const leanService = await startTestService({ storage: lean });
  try {
    const client = new FxClient({ baseUrl: leanService.url, credentials: apiKeyCredentials(leanService.key) });
    const asset = await client.uploadAsset(projectZip({ 'index.html': compositionHtml({ width: 64, height: 36 }) }));
    const done = await client.waitForRender(
      (await client.createRender({ asset_id: asset.asset_id, fps: 4 })).render_id,
      {
        pollInterval: 50,
      },
    );
    assert.equal(done.status, 'completed');
    const copy = join(ownCache, 'assets', asset.asset_id);
    await waitFor(() => (existsSync(copy) ? undefined : true), 5_000, 'the project copy to go');
    assert.deepEqual(await readdir(ownCache).then((names) => names.filter((name) => name !== '.tmp')), ['assets']);
  } finally {
    await leanService.close();
    lean.client.destroy();
    await rm(ownCache, { recursive: true, force: true });
  }
});

test('an expired presigned link (a bare 403 from S3) gets the client one fresh record, and the download succeeds', async () => {
  // Links of 2 s: S3 counts from the signing second, so a fresh link still has at least one second to go.
  const shortLived = await startTestService({ storage, signedUrlTtlSeconds: 2 });
  try {
    const client = new FxClient({ baseUrl: shortLived.url, credentials: apiKeyCredentials(shortLived.key) });
    const asset = await client.uploadAsset(projectZip({ 'index.html': compositionHtml({ width: 64, height: 36 }) }));
    const done = await client.waitForRender(
      (await client.createRender({ asset_id: asset.asset_id, fps: 4 })).render_id,
      {
        pollInterval: 50,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const stale = await fetch(done.video_url!);
    assert.equal(stale.status, 403, 'the old link has expired');
    await stale.body?.cancel();
    const video = await client.downloadRender(done);
    assert.equal(video.contentType, 'video/mp4');
    assert.notEqual(video.render.video_url, done.video_url, 'downloaded through a fresh link');
  } finally {
    await shortLived.close();
  }
});

test('a project whose last entry fails its CRC check, after others were stored, leaves nothing in the bucket', async () => {
  const before = await keysUnder('assets/');
  const zip = buildZip([
    { name: 'index.html', data: compositionHtml() },
    { name: 'media/a.txt', data: 'stored before the failure' },
    { name: 'z.txt', data: 'hello', crc: 12345 },
  ]);
  const response = await service.api('/v3/assets', zipInit(zip));
  assert.equal(response.status, 422);
  assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'zip_invalid');
  assert.deepEqual(await keysUnder('assets/'), before);
  assert.deepEqual(await keysUnder('.fx-commits/assets/'), await commitsOf(before));
});

/** The commit records of the trees `keys` belong to. */
async function commitsOf(keys: readonly string[]): Promise<string[]> {
  const trees = new Set(keys.map((key) => `.fx-commits/${key.split('/').slice(0, 2).join('/')}`));
  return [...trees].sort();
}

const MAIN = fileURLToPath(new URL('../../src/service/main.ts', import.meta.url));
const ADMIN = fileURLToPath(new URL('../../src/service/admin.ts', import.meta.url));

test('the service process reads FX_SERVICE_S3_*: uploads land in the bucket; a malformed bucket stops it at start', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'fx-s3-main-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    FX_SERVICE_DATA_DIR: dataDir,
    FX_SERVICE_PORT: '0',
    [S3_ENV.endpoint]: s3.endpoint,
    [S3_ENV.bucket]: s3.settings.bucket,
    [S3_ENV.accessKeyId]: s3.settings.credentials!.accessKeyId,
    [S3_ENV.secretAccessKey]: s3.settings.credentials!.secretAccessKey,
    [S3_ENV.forcePathStyle]: '1',
  };
  const refused = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...env, [S3_ENV.bucket]: 'Not_A_Bucket' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let refusal = '';
  refused.stderr!.on('data', (chunk: Buffer) => (refusal += chunk.toString()));
  const [code] = await once(refused, 'exit');
  assert.notEqual(code, 0);
  assert.match(refusal, /"FX_SERVICE_S3_BUCKET" must be an S3 bucket name/);

  const { stdout } = await promisify(execFile)(process.execPath, [
    '--import',
    'tsx',
    ADMIN,
    'create-key',
    '--account',
    'me',
    '--data-dir',
    dataDir,
  ]);
  const key = /api key[^:]*: (\S+)/.exec(stdout)![1]!;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const url = await waitFor(
      () => /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? (child.exitCode !== null ? 'exited' : undefined),
      60_000,
      'the service to listen',
    );
    assert.notEqual(url, 'exited', output);
    const response = await fetch(`${url}/v3/assets`, {
      ...zipInit(projectZip({ 'index.html': compositionHtml() })),
      headers: { 'content-type': 'application/zip', authorization: `Bearer ${key}` },
    });
    assert.equal(response.status, 201, output);
    const { asset_id } = (await response.json()) as { asset_id: string };
    assert.deepEqual(await keysUnder(`assets/${asset_id}/`), [`assets/${asset_id}/index.html`]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
});
