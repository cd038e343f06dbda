// The pg-boss job queue on a throwaway cluster: leases, retries, hand-back, duplicate enqueues, cancel. Runs in
// `npm run test:postgres` (FX_TEST_DATABASE=postgres); skipped in the SQLite run.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { openPostgres, type PgPool } from '../../src/service/db/postgres.js';
import { AbortReason, type Job } from '../../src/service/jobs/job-queue.js';
import { jobIdOf, PgBossJobQueue, type PgBossQueueOptions } from '../../src/service/jobs/job-queue.pgboss.js';
import { sharedPostgresCluster } from '../fixtures/postgres-cluster.js';
import { onPostgres } from './helpers/database.js';
import { waitFor } from './helpers/harness.js';

const skip = onPostgres ? false : 'PostgreSQL only (npm run test:postgres)';

const FAST: PgBossQueueOptions = {
  concurrency: 1,
  leaseSeconds: 3,
  retryLimit: 3,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
};

const pools: PgPool[] = [];
const queues: PgBossJobQueue[] = [];
after(async () => {
  await Promise.allSettled(queues.map((queue) => queue.stop()));
  await Promise.allSettled(pools.map((pool) => pool.end()));
});

/** A fresh database and a function that opens a queue on it over its own pool (one pool = one process). */
async function newDatabase() {
  const url = await (await sharedPostgresCluster()).createDatabase();
  return async (options: Partial<PgBossQueueOptions> = {}) => {
    const pool = await openPostgres(url);
    pools.push(pool);
    const queue = await PgBossJobQueue.open(pool, { ...FAST, ...options });
    queues.push(queue);
    return { pool, queue };
  };
}

const never = (job: Job) =>
  new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pg-boss job queue', { skip }, () => {
  test('the job id is a UUID fixed by the render id', () => {
    assert.match(jobIdOf('rnd_a'), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(jobIdOf('rnd_a'), jobIdOf('rnd_a'));
    assert.notEqual(jobIdOf('rnd_a'), jobIdOf('rnd_b'));
  });

  test('processes starting together on a fresh database install pg-boss and the queue once', async () => {
    const open = await newDatabase();
    const started = await Promise.all(Array.from({ length: 5 }, () => open()));
    const { rows } = await started[0]!.pool.query(`SELECT name FROM pgboss.queue`);
    assert.deepEqual(rows, [{ name: 'render' }]);
  });

  test('enqueueing a render twice, from two processes, runs it once', async () => {
    const open = await newDatabase();
    const a = await open();
    const b = await open();
    await a.queue.enqueue('rnd_twice');
    await b.queue.enqueue('rnd_twice');
    const { rows } = await a.pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'renderId' = 'rnd_twice'`,
    );
    assert.equal(rows[0].n, 1);
    const runs: string[] = [];
    a.queue.start(async (job) => void runs.push(job.renderId));
    b.queue.start(async (job) => void runs.push(job.renderId));
    await waitFor(() => (runs.length > 0 ? true : undefined));
    await sleep(1500);
    assert.deepEqual(runs, ['rnd_twice']);
  });

  test('runs at most `concurrency` jobs at once, each job once', async () => {
    const { queue } = await (await newDatabase())({ concurrency: 2 });
    let active = 0;
    let peak = 0;
    const done: string[] = [];
    queue.start(async (job) => {
      peak = Math.max(peak, ++active);
      await sleep(200);
      active--;
      done.push(job.renderId);
    });
    for (let i = 0; i < 6; i++) await queue.enqueue(`rnd_${i}`);
    await waitFor(() => (done.length === 6 ? true : undefined), 20_000);
    assert.equal(peak, 2);
    assert.deepEqual([...done].sort(), ['rnd_0', 'rnd_1', 'rnd_2', 'rnd_3', 'rnd_4', 'rnd_5']);
  });

  test('a handler that throws is retried after a growing delay (at least once, same job), each retry told', async () => {
    const retries: [string, number][] = [];
    const { queue } = await (
      await newDatabase()
    )({
      retryDelaySeconds: 1,
      onRetry: (job, retry) => retries.push([job.renderId, retry]),
    });
    const starts: number[] = [];
    queue.start(async () => {
      starts.push(Date.now());
      if (starts.length < 3) throw new Error('database away');
    });
    await queue.enqueue('rnd_flaky');
    await waitFor(() => (starts.length === 3 ? true : undefined), 30_000);
    const [first, second, third] = starts as [number, number, number];
    // Backoff: delay × 2^n / 2 plus up to as much again at random, so at least 1 s, then at least 2 s.
    assert.ok(second - first >= 1000, `first retry after ${second - first} ms`);
    assert.ok(third - second >= 2000, `second retry after ${third - second} ms`);
    // The first run is no retry; each later fetch is, numbered (the service's `jobRetried`, fx_job_retries_total).
    assert.deepEqual(retries, [
      ['rnd_flaky', 1],
      ['rnd_flaky', 2],
    ]);
  });

  test('enqueueing a render whose job used up its retries gives it its job back (the sweep of queued renders)', async () => {
    const { queue, pool } = await (await newDatabase())({ retryLimit: 0 });
    let starts = 0;
    queue.start(async () => {
      if (++starts === 1) throw new Error('database away');
    });
    await queue.enqueue('rnd_exhausted');
    await waitFor(async () => {
      const { rows } = await pool.query(`SELECT state FROM pgboss.job WHERE id = $1`, [jobIdOf('rnd_exhausted')]);
      return rows[0]?.state === 'failed' ? true : undefined;
    });
    await queue.enqueue('rnd_exhausted');
    await waitFor(() => (starts === 2 ? true : undefined), 10_000, 'the job run again');
  });

  test("a dead worker's job comes back after its lease, to another worker, marked leased", async () => {
    const open = await newDatabase();
    const dead = await open();
    const alive = await open();
    let taken: Job | undefined;
    dead.queue.start(async (job) => {
      taken = job;
      await never(job);
    });
    await dead.queue.enqueue('rnd_orphan');
    await waitFor(() => taken);
    // The process dies: its connections go, nothing renews the lease or hands the job back.
    const diedAt = Date.now();
    await dead.pool.end();
    const second: Job[] = [];
    alive.queue.start(async (job) => void second.push(job));
    await waitFor(() => second[0], 20_000, 'the job on the second worker');
    // The lease runs from the last renewal, up to a third of it before the death.
    const leaseLeft = ((FAST.leaseSeconds * 2) / 3) * 1000;
    assert.ok(Date.now() - diedAt >= leaseLeft, 'taken over before the lease ran out');
    assert.equal(second[0]!.renderId, 'rnd_orphan');
    assert.equal(second[0]!.leased, true);
  });

  test('a running job keeps its lease however long it runs', async () => {
    const open = await newDatabase();
    const a = await open();
    const b = await open();
    const runs: string[] = [];
    a.queue.start(async () => {
      runs.push('a');
      await sleep(FAST.leaseSeconds * 1000 * 3);
    });
    await a.queue.enqueue('rnd_long');
    await waitFor(() => (runs.length > 0 ? true : undefined));
    b.queue.start(async () => void runs.push('b'));
    await sleep(FAST.leaseSeconds * 1000 * 3 + 1500);
    assert.deepEqual(runs, ['a']);
  });

  test('stop hands a running job back at once, with the shutdown reason', async () => {
    const open = await newDatabase();
    const a = await open({ leaseSeconds: 60 });
    const b = await open({ leaseSeconds: 60 });
    let reason: unknown;
    a.queue.start(async (job) => {
      await never(job);
      reason = job.signal.reason;
    });
    await a.queue.enqueue('rnd_handed');
    await waitFor(() => (a.queue as unknown as { running: Map<string, unknown> }).running.size || undefined);
    const stoppedAt = Date.now();
    await a.queue.stop();
    assert.equal(reason, AbortReason.shutdown);
    const second: Job[] = [];
    b.queue.start(async (job) => void second.push(job));
    await waitFor(() => second[0], 10_000);
    assert.ok(Date.now() - stoppedAt < 10_000, 'waited for the lease instead of the hand-back');
    assert.equal(second[0]!.renderId, 'rnd_handed');
  });

  test('cancel drops a queued job; a running one on another worker is aborted as deleted', async () => {
    const open = await newDatabase();
    const api = await open();
    const worker = await open();
    await api.queue.enqueue('rnd_queued');
    api.queue.cancel('rnd_queued', AbortReason.deleted);
    await sleep(300);
    const ran: string[] = [];
    let reason: unknown;
    worker.queue.start(async (job) => {
      ran.push(job.renderId);
      await never(job);
      reason = job.signal.reason;
    });
    await api.queue.enqueue('rnd_running');
    await waitFor(() => (ran.length > 0 ? true : undefined));
    api.queue.cancel('rnd_running', AbortReason.deleted);
    await waitFor(() => reason, 10_000, 'the abort on the worker');
    assert.equal(reason, AbortReason.deleted);
    assert.deepEqual(ran, ['rnd_running']);
  });

  test('a database restart: the worker goes on taking jobs once the server is back', async () => {
    const { queue } = await (await newDatabase())();
    const runs: string[] = [];
    queue.start(async (job) => void runs.push(job.renderId));
    await queue.enqueue('rnd_before');
    await waitFor(() => (runs.length === 1 ? true : undefined));
    await (await sharedPostgresCluster()).restart();
    // The pool's connections are gone: the first statements may fail, the next ones open new connections.
    await waitFor(
      async () =>
        (await queue.enqueue('rnd_after').then(
          () => true,
          () => false,
        ))
          ? true
          : undefined,
      20_000,
      'an enqueue after the restart',
    );
    await waitFor(() => (runs.includes('rnd_after') ? true : undefined), 20_000, 'the job after the restart');
    assert.deepEqual(runs, ['rnd_before', 'rnd_after']);
  });
});
