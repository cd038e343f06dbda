import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FxError } from '../../../src/runtime/errors.js';
import type { RenderFunction } from '../../../src/render/types.js';
import { createServiceLogger, scrub } from '../../../src/service/observe/logger.js';
import { createFfmpegRenderer } from '../helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  waitForFinished,
  type RenderJson,
  type TestService,
} from '../helpers/harness.js';
import { lineCollector, refusingReceiver } from './helpers.js';

const PRESIGNED = 'https://bucket.example/renders/x.mp4?X-Amz-Signature=0123abcd&X-Amz-Credential=AKIA1234';

describe('the service log: JSON lines of a render with a webhook that fails', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof refusingReceiver>>;
  let webhookSecret: string;
  let assetId: string;
  const collected = lineCollector();
  const operational: string[] = [];
  const lines = () => collected.lines();
  const about = (renderId: string) => lines().filter((line) => line.renderId === renderId);
  // A renderer that fails the way a careless one might: a signed URL and a key in its message.
  const ffmpeg = createFfmpegRenderer();
  let leak = '';
  const render: RenderFunction = async (options) => {
    if (options.composition.endsWith('leak.html')) throw new FxError('composition_broken', leak);
    return ffmpeg(options);
  };

  before(async () => {
    receiver = await refusingReceiver(500);
    service = await startTestService({
      render,
      logger: createServiceLogger({ level: 'debug', destination: collected.stream }),
      // The `log` hook of before still hears the operational lines.
      log: (message) => operational.push(message),
      // The tests' own requests come from loopback: as through a proxy there.
      trustedProxies: ['127.0.0.1', '::1'],
      webhooks: { pollMs: 50, retryBaseMs: 100, timeoutMs: 2_000, maxAttempts: 2 },
    });
    webhookSecret = ((await (await service.api('/v3/account')).json()) as { webhook_secret: string }).webhook_secret;
    leak = `could not load ${PRESIGNED} with Authorization: Bearer ${service.key} (secret ${webhookSecret})`;
    assetId = await uploadProject(service, {
      'index.html': compositionHtml(),
      'leak.html': compositionHtml(),
    });
  });
  after(async () => {
    await service.close();
    receiver.close();
  });

  test('a request line per request: time, level, request id (taken and echoed), route, status, ms, account', async () => {
    const response = await service.api('/v3/account', { headers: { 'x-request-id': 'req-given-1' } });
    assert.equal(response.headers.get('x-request-id'), 'req-given-1');
    const made = await service.api('/v3/account', { headers: { 'x-request-id': 'not a valid id: spaces' } });
    const madeId = made.headers.get('x-request-id')!;
    assert.match(madeId, /^[0-9a-f-]{36}$/);
    const line = await waitFor(() => lines().find((line) => line.requestId === 'req-given-1'));
    assert.equal(line.level, 'info');
    assert.equal(line.msg, 'request');
    assert.ok(!Number.isNaN(Date.parse(String(line.time))), 'an ISO time');
    assert.deepEqual(
      [line.method, line.route, line.path, line.status, line.account],
      ['GET', '/v3/account', '/v3/account', 200, service.accountId],
    );
    assert.equal(typeof line.ms, 'number');
    assert.equal(line.client, '127.0.0.1');
    assert.ok(lines().some((line) => line.requestId === madeId));
    // Through a trusted proxy, the client it forwarded; a made-up first entry of the chain is not believed.
    await service.api('/v3/account', {
      headers: { 'x-request-id': 'req-proxied', 'x-forwarded-for': '198.51.100.1, 203.0.113.7' },
    });
    const proxied = await waitFor(() => lines().find((line) => line.requestId === 'req-proxied'));
    assert.equal(proxied.client, '203.0.113.7');
    // Refused credentials: no account, still a line.
    const refused = await fetch(`${service.url}/v3/account`, { headers: { 'x-request-id': 'req-refused' } });
    assert.equal(refused.status, 401);
    const refusedLine = await waitFor(() => lines().find((line) => line.requestId === 'req-refused'));
    assert.equal(refusedLine.status, 401);
    assert.equal(refusedLine.account, undefined);
  });

  test('a line per state change (with its time and failure code), per webhook attempt and its final failure', async () => {
    const { render_id: done } = (await (
      await service.api(
        '/v3/renders',
        jsonInit({ asset_id: assetId, fps: 4, callback_url: `${receiver.url}/hook` }, { 'x-request-id': 'req-submit' }),
      )
    ).json()) as RenderJson;
    // The submit's request line names the render it made; the render's lines follow by its id.
    const submitLine = await waitFor(() => lines().find((line) => line.requestId === 'req-submit'));
    assert.deepEqual([submitLine.route, submitLine.status, submitLine.renderId], ['/v3/renders', 202, done]);
    const { render_id: broken } = (await (
      await service.api('/v3/renders', jsonInit({ asset_id: assetId, composition: 'leak.html' }))
    ).json()) as RenderJson;
    await waitForFinished(service, done);
    await waitForFinished(service, broken);
    await waitFor(
      () => (about(done).some((line) => line.msg === 'webhook failed for good') ? true : undefined),
      10_000,
      'the webhook to be given up',
    );

    const changes = about(done).filter((line) => line.msg === 'render state changed');
    assert.deepEqual(
      changes.map((line) => [line.from, line.to, line.change, line.level]),
      [
        [null, 'queued', 'submit', 'info'],
        ['queued', 'rendering', 'claim', 'info'],
        ['rendering', 'completed', 'complete', 'info'],
      ],
    );
    assert.ok(changes.every((line) => line.account === service.accountId && typeof line.ms === 'number'));
    const completed = changes.at(-1)!;
    assert.equal(completed.frames, 2);
    assert.ok((completed.ms as number) > 0 && (completed.fps as number) > 0);

    const failed = about(broken).find((line) => line.msg === 'render state changed' && line.to === 'failed')!;
    assert.deepEqual([failed.level, failed.from, failed.failureCode], ['warn', 'rendering', 'composition_broken']);

    const attempts = about(done).filter((line) => String(line.msg).startsWith('webhook'));
    assert.deepEqual(
      attempts.map((line) => [line.msg, line.level, line.attempt, line.status, line.outcome]),
      [
        ['webhook attempt failed', 'warn', 1, 500, 'retry'],
        ['webhook failed for good', 'error', 2, 500, 'abandoned'],
      ],
    );
    assert.equal(attempts[0]!.error, 'answered HTTP 500');

    // The operational lines go to the logger (the renderer's message, scrubbed) and to the `log` hook as before.
    const renderFailed = about(broken).find((line) => line.msg === 'render failed')!;
    assert.equal(renderFailed.level, 'warn');
    assert.match(String(renderFailed.error), /X-Amz-Signature=\*\*\*/);
    assert.ok(operational.includes('render failed'));
  });

  test('no secret reaches the log: API keys, bearer tokens, signatures, webhook secrets', async () => {
    // A signed link of the service, fetched: its request line has the path, not the signature.
    const { render_id } = (await (
      await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 4 }))
    ).json()) as RenderJson;
    const record = await waitForFinished(service, render_id);
    await fetch(String(record.video_url));
    await waitFor(
      () => (lines().some((line) => String(line.route).startsWith('/v3/files')) ? true : undefined),
      5_000,
    ).catch(
      () => undefined, // On S3 the link is the bucket's: it never reaches the service.
    );
    const text = collected.text();
    assert.ok(text.length > 0);
    assert.ok(!text.includes(service.key), 'no API key');
    assert.ok(!text.includes(service.key.slice(8)), 'no part of the API key');
    assert.ok(!text.includes(webhookSecret), 'no webhook secret');
    assert.ok(!text.includes(webhookSecret.slice(6)), 'no part of the webhook secret');
    assert.doesNotMatch(text, /Bearer (?!\*\*\*)/, 'no bearer token');
    assert.doesNotMatch(text, /[?&]sig=(?!\*\*\*)/, 'no signed link signature');
    assert.doesNotMatch(text, /X-Amz-(Signature|Credential)=(?!\*\*\*)/, 'no presigned URL signature');
    assert.ok(!text.includes('0123abcd'));
  });
});

test('scrub hides keys, secrets, bearer tokens, signatures and database passwords', () => {
  const text = scrub(
    'key fx_live_AbC-123_x secret whsec_QUJD+/= auth Bearer abc.def ' +
      '/v3/files/renders/r/video.mp4?expires=1&sig=deadbeef ' +
      'https://b.s3/x?X-Amz-Credential=AK%2F1&X-Amz-Signature=f00 postgres://fx:hunter2@db:5432/fx',
  );
  assert.equal(
    text,
    'key fx_live_*** secret whsec_*** auth Bearer *** ' +
      '/v3/files/renders/r/video.mp4?expires=1&sig=*** ' +
      'https://b.s3/x?X-Amz-Credential=***&X-Amz-Signature=*** postgres://fx:***@db:5432/fx',
  );
});

test('chunk retries are logged as job retries; FX_SERVICE_LOG_LEVEL-style levels drop the lines below', async () => {
  const collected = lineCollector();
  const service = await startTestService({
    logger: createServiceLogger({ level: 'warn', destination: collected.stream }),
    chunks: { workers: 2, minChunkFrames: 1 },
    chunkRenderer: {
      renderChunk: async () => {
        throw new FxError('composition_broken', 'this chunk never renders');
      },
      joinChunks: async () => {
        throw new Error('never joined');
      },
    },
  });
  try {
    const assetId = await uploadProject(service, { 'index.html': compositionHtml({ duration: 0.5 }) });
    const { render_id } = (await (
      await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 4 }))
    ).json()) as RenderJson;
    await waitForFinished(service, render_id);
    const retries = await waitFor(() => {
      const found = collected.lines().filter((line) => line.msg === 'job retried' && line.renderId === render_id);
      return found.length >= 2 ? found : undefined;
    });
    assert.ok(retries.every((line) => line.level === 'warn' && line.reason === 'chunk_failed'));
    assert.deepEqual(
      retries
        .map((line) => line.retry)
        .slice(0, 2)
        .sort(),
      [1, 1],
    );
    const lines = collected.lines();
    assert.ok(lines.some((line) => line.msg === 'render state changed' && line.to === 'failed'));
    assert.ok(!lines.some((line) => line.level === 'info' || line.level === 'debug'), 'nothing below warn');
  } finally {
    await service.close();
  }
});
