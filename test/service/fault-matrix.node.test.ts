// The fault matrix: two API processes and three workers (child-service.ts, two renders each) on one PostgreSQL
// database, reached through a TCP proxy that can cut connections, and one S3 bucket (s3rver). Assets and 50 renders
// are submitted through both APIs with Idempotency-Key (some sent twice at once, to both), in waves, while the
// faults of helpers/faults.ts are injected one after another. Then every render must have completed exactly once,
// with one asset, record, job, output and webhook each. Runs on its own: `npm run test:faults` (about a minute).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/service/admin-commands.js';
import { openStores } from '../../src/service/db/open-stores.js';
import { jobIdOf } from '../../src/service/jobs/job-queue.pgboss.js';
import { startPostgresCluster, type PostgresCluster } from '../fixtures/postgres-cluster.js';
import { sharedS3Server } from '../fixtures/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';
import { logLinesAbout } from './helpers/child-logs.js';
import { onPostgres, type TestLocation } from './helpers/database.js';
import { directQuery, FAULTS, type FaultContext } from './helpers/faults.js';
import { compositionHtml, waitFor } from './helpers/harness.js';
import { exited, startChild, startReceiver, type ChildService } from './helpers/service-processes.js';
import { storedAssetEntries, storedKeys } from './helpers/storage.js';
import { projectZip } from './helpers/zip-builder.js';

/** Set by `npm run test:faults` and the `fault matrix` step of `npm test`, which run this file on its own. */
const FAULTS_ENV = 'FX_TEST_FAULTS';
const skip = !onPostgres || !process.env[FAULTS_ENV] ? `its own run (npm run test:faults, ${FAULTS_ENV}=1)` : false;

const RENDERS = 50;
/** Every how many-th request of a wave is sent twice at once, to both APIs, with one key. */
const REPLAY_EVERY = 4;
/** Webhook deliveries answered 503 first: their retries must carry the same `webhook-id`. */
const REFUSED_DELIVERIES = 5;
/** How long a wave is in flight before the next fault. */
const WAVE_HEAD_START_MS = 300;
/** Chunked renders: 2 chunks of at least 10 frames, so the 1 s renders stay one job and the 3 s ones are split. */
const WORKER_ENV = { FX_SERVICE_CONCURRENCY: '2', FX_SERVICE_CHUNK_WORKERS: '2', FX_SERVICE_CHUNK_MIN_FRAMES: '10' };
/** A tiny composition: 1 s at 10 fps, 160×90 (the test renderer's size), in real time. */
const PROJECT = projectZip({ 'index.html': compositionHtml({ duration: 1, width: 160, height: 90 }) });
/** 3 s at 10 fps: two chunks of 15 frames, rendered by the real renderer (see child-service.ts). */
const CHUNKED_PROJECT = projectZip({ 'index.html': compositionHtml({ duration: 3, width: 160, height: 90 }) });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault matrix: 2 APIs, 3 workers, one PostgreSQL and one bucket', { skip }, () => {
  let cluster: PostgresCluster;
  let proxy: TcpProxy;
  let location: TestLocation;
  let directUrl: string;
  let auth: Record<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const apis: ChildService[] = [];
  const workers: ChildService[] = [];

  before(async () => {
    // A cluster of its own: the matrix restarts it.
    cluster = await startPostgresCluster();
    directUrl = await cluster.createDatabase();
    proxy = await startTcpProxy(cluster.port);
    const proxied = new URL(directUrl);
    proxied.port = String(proxy.port);
    const dataDir = await mkdtemp(join(tmpdir(), 'fx-fault-matrix-'));
    const s3 = await (await sharedS3Server()).createBucket(`fx-faults-${process.pid}`);
    location = { dataDir, databaseUrl: proxied.href, s3 };
    const stores = await openStores(location);
    auth = { authorization: `Bearer ${(await createApiKey(stores, 'faults')).key}` };
    await stores.close();
    receiver = await startReceiver(Array.from({ length: REFUSED_DELIVERIES }, () => 503));
    for (let i = 0; i < 2; i++) apis.push(await startChild(location, 'api'));
    for (let i = 0; i < 3; i++) workers.push(await startChild(location, 'worker', WORKER_ENV));
  });
  after(async () => {
    const all = [...apis, ...workers];
    for (const { child } of all) child.kill('SIGKILL');
    await Promise.all(all.map(({ child }) => exited(child)));
    receiver?.close();
    await proxy?.close();
    await cluster?.stop();
    if (location) await rm(location.dataDir, { recursive: true, force: true });
  });

  /**
   * A client that retries like ours: same key, the other API, on a network error, a 5xx or a key still in progress;
   * anything else is a finding.
   */
  async function send(path: string, key: string, first: number, init: RequestInit) {
    const deadline = Date.now() + 120_000;
    for (let tries = 1; ; tries++) {
      const api = apis[(first + tries - 1) % apis.length]!;
      let answer: string;
      try {
        const response = await fetch(`${api.url}${path}`, {
          ...init,
          headers: { ...auth, ...(init.headers as Record<string, string>), 'idempotency-key': key },
        });
        const body = (await response.json().catch(() => ({}))) as Record<string, any>;
        if (response.ok) return { body, tries, replayed: response.headers.get('idempotent-replayed') === 'true' };
        answer = `${response.status} ${body.error?.code}`;
        if (response.status < 500 && body.error?.code !== 'idempotency_key_in_progress')
          throw new Error(`${path} (${key}) answered ${answer}: ${body.error?.message}`);
      } catch (error) {
        if (String(error).includes('answered')) throw error;
        answer = String(error);
      }
      if (Date.now() > deadline) throw new Error(`${path} (${key}) kept failing: ${answer}`);
      await sleep(250);
    }
  }

  /** Sends a request once, or twice at once to both APIs; both must name the same resource. */
  async function sendMaybeTwice(path: string, key: string, index: number, init: RequestInit, idField: string) {
    if (index % REPLAY_EVERY !== 0) return (await send(path, key, index, init)).body[idField] as string;
    const [a, b] = await Promise.all([send(path, key, 0, init), send(path, key, 1, init)]);
    assert.equal(a.body[idField], b.body[idField], `${key}: the two answers name different resources`);
    return a.body[idField] as string;
  }

  test('every render completes exactly once, one asset, output and webhook each, through every fault', async (t) => {
    const started = Date.now();
    const context: FaultContext = {
      cluster,
      proxy,
      workers,
      startWorker: () => startChild(location, 'worker', WORKER_ENV),
      query: directQuery(directUrl),
    };
    const waves = FAULTS.length + 1;
    const perWave = Math.ceil(RENDERS / waves);
    const assetIds: string[] = [];
    const renderIds = new Map<string, string>();
    const wave = async (w: number) => {
      const assetId = await sendMaybeTwice(
        '/v3/assets',
        `asset-${w}`,
        w * REPLAY_EVERY,
        {
          method: 'POST',
          headers: { 'content-type': 'application/zip' },
          body: (FAULTS[w]?.chunkedWave ? CHUNKED_PROJECT : PROJECT) as Uint8Array<ArrayBuffer>,
        },
        'asset_id',
      );
      assetIds.push(assetId);
      const count = Math.min(perWave, RENDERS - w * perWave);
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const n = w * perWave + i;
          const body = { asset_id: assetId, fps: 10, callback_url: receiver.url, callback_id: `cb-${n}` };
          const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
          renderIds.set(`cb-${n}`, await sendMaybeTwice('/v3/renders', `render-${n}`, i, init, 'render_id'));
        }),
      );
    };

    const inFlight: Promise<void>[] = [];
    for (let w = 0; w < waves; w++) {
      inFlight.push(wave(w));
      await sleep(WAVE_HEAD_START_MS);
      const fault = FAULTS[w];
      if (!fault) continue;
      const at = Date.now();
      const what = await fault.inject(context);
      t.diagnostic(`${((at - started) / 1000).toFixed(1)} s: ${fault.name}: ${what}`);
    }
    await Promise.all(inFlight);
    t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: all ${RENDERS} renders submitted`);

    // Every render finished; read straight from the database.
    const finished = await waitFor(
      async () => {
        const rows = await context
          .query<{
            id: string;
            status: string;
            attempts: number;
            video_key: string | null;
            thumbnail_key: string | null;
            failure_code: string | null;
            failure_message: string | null;
          }>(`SELECT id, status, attempts, video_key, thumbnail_key, failure_code, failure_message FROM renders`)
          .catch(() => []);
        return rows.length === RENDERS && rows.every(({ status }) => status === 'completed' || status === 'failed')
          ? rows
          : undefined;
      },
      240_000,
      `all ${RENDERS} renders to finish`,
    );
    t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: all renders finished`);

    // Renders: one record per submitted render (the replays named the same one), each completed once.
    assert.equal(renderIds.size, RENDERS);
    assert.deepEqual(finished.map(({ id }) => id).sort(), [...renderIds.values()].sort(), 'records ≠ submits');
    for (const render of finished) {
      const { id, status, attempts, failure_code, failure_message } = render;
      if (status !== 'completed') {
        // The public message says "see the service log": quote it.
        const log = (await logLinesAbout(location.dataDir, id)).join('\n');
        assert.fail(`${id} ${status} after ${attempts} start(s): ${failure_code} ${failure_message}\n${log}`);
      }
      assert.ok(render.attempts >= 1 && render.attempts <= 3, `${render.id} started ${render.attempts} times`);
    }
    const restarted = finished.filter(({ attempts }) => attempts > 1).length;
    t.diagnostic(`${restarted} render(s) taken over (attempts > 1)`);
    // Each render's job completed, one job each. A job ends a moment after its render (the handler still removes
    // chunk files and its folder), so the queue gets a while to settle.
    const renderJobIds = new Set([...renderIds.values()].map(jobIdOf));
    const unsettled = (rows: { id: string; state: string }[]) =>
      rows.filter(({ id, state }) =>
        renderJobIds.has(id) ? state !== 'completed' : ['created', 'retry', 'active'].includes(state),
      );
    const readJobs = () =>
      context.query<{ id: string; state: string; data: unknown; retry_count: number }>(
        `SELECT id, state, data, retry_count FROM pgboss.job WHERE name = 'render'`,
      );
    await waitFor(
      async () => (unsettled(await readJobs()).length === 0 ? true : undefined),
      30_000,
      'the jobs to end',
    ).catch(() => {}); // the checks below say which did not
    const jobs = await readJobs();
    const renderJobs = jobs.filter(({ id }) => renderJobIds.has(id));
    assert.deepEqual(renderJobs.map(({ id }) => id).sort(), [...renderJobIds].sort());
    // Every render's job completed; no chunk job (the chunked wave's) left waiting or running.
    assert.deepEqual(unsettled(jobs), []);
    assert.ok(
      jobs.some(({ id }) => !renderJobIds.has(id)),
      'no render was chunked',
    );
    // Every chunk done, each render joined once.
    const chunks = await context.query<{ status: string }>(`SELECT status FROM render_chunks`);
    assert.ok(chunks.length > 0 && chunks.every(({ status }) => status === 'done'), JSON.stringify(chunks));

    // Assets: one record and one stored tree per upload, nothing half-written.
    assert.equal(new Set(assetIds).size, waves);
    const assetRows = await context.query<{ id: string }>(`SELECT id FROM assets`);
    assert.deepEqual(assetRows.map(({ id }) => id).sort(), [...assetIds].sort());
    assert.deepEqual(
      await storedAssetEntries(location.dataDir, location.s3),
      [...assetIds.map((id) => `.fx-commits/assets/${id}`), ...assetIds.map((id) => `assets/${id}`)].sort(),
    );

    // Outputs: exactly a video and a thumbnail per render, nothing else under renders/.
    const outputs = await storedKeys(location.dataDir, location.s3, 'renders/');
    assert.deepEqual(
      outputs.map(({ key }) => key),
      finished.flatMap(({ video_key, thumbnail_key }) => [video_key!, thumbnail_key!]).sort(),
    );
    assert.ok(outputs.every(({ size }) => size > 0));

    // Webhooks: one message id per render, retries reusing it; one outbox row each, delivered.
    const uniqueIds = () => new Set(receiver.received.filter(({ answered }) => answered === 200).map(({ id }) => id));
    await waitFor(() => (uniqueIds().size >= RENDERS ? true : undefined), 60_000, 'a webhook per render');
    await sleep(1_500);
    const byCallback = new Map<string, Set<string>>();
    for (const { id, body } of receiver.received) {
      const callbackId = JSON.parse(body).data.callback_id as string;
      byCallback.set(callbackId, (byCallback.get(callbackId) ?? new Set()).add(id));
    }
    assert.equal(uniqueIds().size, RENDERS);
    assert.equal(byCallback.size, RENDERS);
    for (const [callbackId, ids] of byCallback) assert.equal(ids.size, 1, `${callbackId} got ${ids.size} message ids`);
    const refused = receiver.received.filter(({ answered }) => answered === 503);
    assert.ok(
      refused.every(({ id }) => uniqueIds().has(id)),
      'a refused delivery was not retried with its id',
    );
    const outbox = await context.query<{ render_id: string; state: string }>(
      `SELECT render_id, state FROM webhook_deliveries`,
    );
    assert.deepEqual(outbox.map(({ render_id }) => render_id).sort(), [...renderIds.values()].sort());
    assert.ok(outbox.every(({ state }) => state === 'delivered'));
    t.diagnostic(
      `${receiver.received.length} deliveries for ${RENDERS} webhooks; ${((Date.now() - started) / 1000).toFixed(1)} s in all`,
    );
  });
});
