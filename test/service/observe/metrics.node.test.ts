import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FxError } from '../../../src/runtime/errors.js';
import { createService } from '../../../src/service/service.js';
import { onPostgres } from '../helpers/database.js';
import { createFfmpegRenderer, FAIL_MARKER } from '../helpers/ffmpeg-renderer.js';
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
import { refusingReceiver, sample } from './helpers.js';

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics during renders and a failing webhook', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof refusingReceiver>>;
  let assetId: string;
  const scrape = async () => {
    const response = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  before(async () => {
    receiver = await refusingReceiver(500);
    service = await startTestService({
      // One render at a time, produced at its real rate: the second waits in the queue while the first renders.
      render: createFfmpegRenderer({ realtime: true }),
      concurrency: 1,
      metrics: { token: TOKEN },
      webhooks: { pollMs: 50, retryBaseMs: 100, timeoutMs: 2_000, maxAttempts: 2 },
    });
    assetId = await uploadProject(service, {
      'index.html': compositionHtml({ duration: 1.5 }),
      'fail.html': compositionHtml({ extra: FAIL_MARKER }),
    });
  });
  after(async () => {
    await service.close();
    receiver.close();
  });

  test('the token is asked for: 401 without it or with another, 200 with it', async () => {
    const without = await fetch(`${service.url}/metrics`);
    assert.equal(without.status, 401);
    assert.match(without.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal(((await without.json()) as { error: { code: string } }).error.code, 'authentication_required');
    const wrong = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.equal(wrong.status, 401);
    // An API key is no metrics token.
    assert.equal(
      (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.key}` } })).status,
      401,
    );
    assert.equal(sample(await scrape(), 'fx_http_requests_total', { route: '/metrics', status: '401' }), 3);
  });

  test('the counters move: requests, renders by state and code, durations, fps, queue, webhooks, conflicts', async () => {
    const submit = async (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      (await (await service.api('/v3/renders', jsonInit(body, headers))).json()) as RenderJson;
    const first = await submit({ asset_id: assetId, fps: 10, callback_url: `${receiver.url}/hook` });
    const second = await submit({ asset_id: assetId, fps: 10 }, { 'idempotency-key': 'metrics-1' });
    // The same key with another body: a conflict.
    assert.equal(
      (await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 12 }, { 'idempotency-key': 'metrics-1' })))
        .status,
      422,
    );

    // While the first renders, the second is queued.
    const during = await waitFor(
      async () => {
        const text = await scrape();
        return sample(text, 'fx_queue_depth') === 1 && sample(text, 'fx_renders_total', { state: 'rendering' }) === 1
          ? text
          : undefined;
      },
      10_000,
      'a render rendering and one queued',
    );
    assert.ok(sample(during, 'fx_queue_oldest_age_seconds')! > 0);
    assert.equal(sample(during, 'fx_renders_total', { state: 'queued', failure_code: '' }), 2);

    await waitForFinished(service, first.render_id);
    await waitForFinished(service, second.render_id);
    const failed = await submit({ asset_id: assetId, composition: 'fail.html' });
    assert.equal((await waitForFinished(service, failed.render_id)).status, 'failed');
    // The webhook is refused twice, then given up.
    await waitFor(() => (receiver.count() >= 2 ? true : undefined), 10_000, 'two webhook attempts');
    const text = await waitFor(
      async () => {
        const text = await scrape();
        return sample(text, 'fx_webhook_failures_total') === 1 ? text : undefined;
      },
      10_000,
      'the webhook to be given up',
    );

    assert.equal(sample(text, 'fx_renders_total', { state: 'queued' }), 3);
    assert.equal(sample(text, 'fx_renders_total', { state: 'rendering' }), 3);
    assert.equal(sample(text, 'fx_renders_total', { state: 'completed', failure_code: '' }), 2);
    assert.equal(sample(text, 'fx_renders_total', { state: 'failed', failure_code: 'composition_broken' }), 1);
    assert.equal(sample(text, 'fx_render_duration_seconds_count', { state: 'completed' }), 2);
    assert.equal(sample(text, 'fx_render_duration_seconds_count', { state: 'failed' }), 1);
    // 15 frames each, produced in real time (1.5 s): about 10 frames a second, never above it by much.
    assert.equal(sample(text, 'fx_render_frames_total'), 30);
    assert.equal(sample(text, 'fx_render_frames_per_second_count'), 2);
    const fps = sample(text, 'fx_render_frames_per_second_sum')! / 2;
    assert.ok(fps > 1 && fps < 12, `frames per second ${fps}`);
    assert.ok(sample(text, 'fx_render_duration_seconds_sum', { state: 'completed' })! >= 2.5);
    assert.equal(sample(text, 'fx_queue_depth'), 0);
    assert.equal(sample(text, 'fx_queue_oldest_age_seconds'), 0);
    assert.equal(sample(text, 'fx_webhook_attempts_total', { outcome: 'retry' }), 1);
    assert.equal(sample(text, 'fx_webhook_attempts_total', { outcome: 'abandoned' }), 1);
    assert.equal(sample(text, 'fx_webhook_attempts_total', { outcome: 'delivered' }), 0);
    assert.equal(sample(text, 'fx_webhook_outbox_pending'), 0);
    assert.equal(
      sample(text, 'fx_idempotency_conflicts_total', { endpoint: 'POST /v3/renders', reason: 'mismatch' }),
      1,
    );
    // Requests by route pattern, never by URL.
    assert.equal(sample(text, 'fx_http_requests_total', { method: 'POST', route: '/v3/renders', status: '202' }), 3);
    assert.equal(sample(text, 'fx_http_requests_total', { method: 'POST', route: '/v3/renders', status: '422' }), 1);
    assert.ok(
      sample(text, 'fx_http_requests_total', { method: 'GET', route: '/v3/renders/:render_id', status: '200' })! >= 3,
    );
    assert.ok(!text.includes(first.render_id), 'no render id in a label');
    assert.equal(sample(text, 'fx_http_request_duration_seconds_count', { method: 'POST', route: '/v3/assets' }), 1);
  });

  test('a route nobody serves is counted as unmatched', async () => {
    assert.equal((await service.api('/v3/nothing/here')).status, 404);
    assert.equal(sample(await scrape(), 'fx_http_requests_total', { route: 'unmatched', status: '404' }), 1);
  });
});

test('the outbox backlog counts webhooks still to be sent', async () => {
  const receiver = await refusingReceiver(503);
  // Retries far apart: the delivery stays pending.
  const service = await startTestService({ webhooks: { pollMs: 50, retryBaseMs: 60_000, timeoutMs: 2_000 } });
  try {
    const assetId = await uploadProject(service, { 'index.html': compositionHtml() });
    const { render_id } = (await (
      await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 4, callback_url: `${receiver.url}/x` }))
    ).json()) as RenderJson;
    await waitForFinished(service, render_id);
    const text = await waitFor(
      async () => {
        const text = await (await fetch(`${service.url}/metrics`)).text();
        return sample(text, 'fx_webhook_attempts_total', { outcome: 'retry' }) === 1 ? text : undefined;
      },
      10_000,
      'a refused attempt',
    );
    assert.equal(sample(text, 'fx_webhook_outbox_pending'), 1);
  } finally {
    await service.close();
    receiver.close();
  }
});

test('chunk jobs and their retries are counted', async () => {
  const service = await startTestService({
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
    assert.equal((await waitForFinished(service, render_id)).status, 'failed');
    const text = await waitFor(
      async () => {
        const text = await (await fetch(`${service.url}/metrics`)).text();
        return (sample(text, 'fx_chunk_jobs_total', { outcome: 'failed' }) ?? 0) >= 1 ? text : undefined;
      },
      10_000,
      'a chunk failed for good',
    );
    // Two chunks; each retried until one uses up its 3 attempts, which fails the render (the other is stopped).
    assert.ok(sample(text, 'fx_chunk_jobs_total', { outcome: 'retry' })! >= 2);
    assert.equal(
      sample(text, 'fx_job_retries_total', { reason: 'chunk_failed' }),
      sample(text, 'fx_chunk_jobs_total', { outcome: 'retry' }),
    );
    assert.equal(sample(text, 'fx_renders_total', { state: 'failed', failure_code: 'composition_broken' }), 1);
  } finally {
    await service.close();
  }
});

test('metrics off: /metrics is a 404; on a port of its own: served there only', async () => {
  const off = await startTestService({ metrics: { enabled: false } });
  try {
    const response = await fetch(`${off.url}/metrics`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'route_not_found');
  } finally {
    await off.close();
  }
  const own = await startTestService({ metrics: { ownPort: true } });
  try {
    assert.equal((await fetch(`${own.url}/metrics`)).status, 404);
    const { url } = await own.service.listenMetrics(0);
    await own.api('/v3/account');
    const response = await fetch(`${url}/metrics`);
    assert.equal(response.status, 200);
    assert.equal(sample(await response.text(), 'fx_http_requests_total', { route: '/v3/account', status: '200' }), 1);
    assert.equal((await fetch(`${url}/v3/account`)).status, 404);
  } finally {
    await own.close();
  }
});

test(
  'a worker serves /metrics on its health port, with the renders it ran',
  { skip: !onPostgres && 'a worker process needs PostgreSQL (npm run test:postgres)' },
  async () => {
    const api = await startTestService({ role: 'api' });
    const worker = await createService({
      role: 'worker',
      // The API's database and files (its bucket, or its data folder as a shared disk).
      dataDir: api.dataDir,
      databaseUrl: api.location.databaseUrl,
      ...(api.location.storage ? { storage: api.location.storage } : {}),
      render: createFfmpegRenderer(),
      publicBaseUrl: api.url,
      webhooks: { pollMs: 50 },
    });
    try {
      const health = await worker.listen(0);
      const assetId = await uploadProject(api, { 'index.html': compositionHtml() });
      const { render_id } = (await (
        await api.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 4 }))
      ).json()) as RenderJson;
      assert.equal((await waitForFinished(api, render_id)).status, 'completed');
      const response = await fetch(`${health.url}/metrics`);
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.equal(sample(text, 'fx_renders_total', { state: 'rendering' }), 1);
      assert.equal(sample(text, 'fx_renders_total', { state: 'completed' }), 1);
      assert.equal(sample(text, 'fx_render_duration_seconds_count', { state: 'completed' }), 1);
      // The submit was the API's; the queue figures are the database's, the same from both.
      const apiText = await (await fetch(`${api.url}/metrics`)).text();
      assert.equal(sample(apiText, 'fx_renders_total', { state: 'queued' }), 1);
      assert.equal(sample(apiText, 'fx_renders_total', { state: 'completed' }), 0);
      assert.equal(sample(text, 'fx_queue_depth'), 0);
      assert.equal((await fetch(`${health.url}/v3/account`)).status, 404);
    } finally {
      await worker.close();
      await api.close();
    }
  },
);
