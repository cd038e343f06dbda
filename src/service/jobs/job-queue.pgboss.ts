import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import { transaction, type PgPool, type Queryable } from '../db/postgres.js';
import { PostgresRenderStore } from '../renders/render-store.postgres.js';
import type { NewRender, RenderRow } from '../renders/render-types.js';
import { AbortReason, jobKey, type ChunkJob, type Job, type JobPayload, type JobQueue } from './job-queue.js';

/** The pg-boss queue of render jobs. */
export const RENDER_QUEUE = 'render';
const SCHEMA = 'pgboss';
/** Key of the advisory lock under which processes install pg-boss one at a time. */
const INSTALL_LOCK = 0x66785f62; // "fx_b"

export interface PgBossQueueOptions {
  /** Jobs this process runs at once. */
  readonly concurrency: number;
  /**
   * How long a job stays held without news from its worker: each running job renews it every third of it, so a
   * worker that dies (kill -9, lost machine) gives its job back within about this long.
   */
  readonly leaseSeconds: number;
  /** Retries after a handler error or an expired lease; the render's own `attempts` decide when to give up. */
  readonly retryLimit: number;
  /** First retry delay, doubled (with jitter) on each retry. */
  readonly retryDelaySeconds: number;
  /** How often an idle worker asks for a job. Default 2. */
  readonly pollingIntervalSeconds?: number;
  /** How often expired leases are looked for (any one process does it). Default 60. */
  readonly maintenanceIntervalSeconds?: number;
  /** A job's failure (`renderId`) or pg-boss's own (maintenance, lost connection: no `renderId`). */
  readonly onError?: (renderId: string | undefined, error: unknown) => void;
  /** A submitted render, once committed with its job (before this process can fetch it). */
  readonly onSubmitted?: (render: RenderRow) => void;
  /** A job fetched again after a handler error or an expired lease: `retry` is pg-boss's retry count (1 first). */
  readonly onRetry?: (job: JobPayload, retry: number) => void;
}

/**
 * The job id of a render (or of a chunk's `jobKey`): a UUID from its SHA-256, so enqueueing a job twice inserts one
 * (pg-boss skips a conflicting id) from any process.
 */
export function jobIdOf(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** pg-boss runs its statements through our pool (or a transaction's client): one set of connections per process. */
const bossDb = (db: Queryable): PgBoss.Db => ({
  executeSql: async (text, values) => db.query(text, values),
});

interface Running {
  readonly renderId: string;
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** Set when the job left this worker (lease lost, cancelled): its end must not complete or fail it. */
  released: boolean;
}

/**
 * The job queue on PostgreSQL (pg-boss 10, the last release that runs on Node 20): any number of processes enqueue
 * and work the same queue. A job is held under a lease (pg-boss's `expireInSeconds`) that its worker renews while
 * it runs, as pg-boss 10 has no heartbeat of its own; an expired lease fails the job into a retry, so another worker
 * takes the render over. `cancel` stops a queued job at once; a running one on another worker finds its job
 * cancelled at its next renewal and is aborted. `stop` aborts running jobs and hands them back for an immediate
 * retry by any worker.
 */
export class PgBossJobQueue implements JobQueue {
  private readonly running = new Map<string, Running>();
  private handler: ((job: Job) => Promise<void>) | undefined;
  private stopped = false;
  private polling = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly renders: PostgresRenderStore;

  private constructor(
    private readonly pool: PgPool,
    private readonly boss: PgBoss,
    private readonly options: PgBossQueueOptions,
  ) {
    this.renders = new PostgresRenderStore(pool);
  }

  /**
   * Installs or updates pg-boss's tables and the render queue. Processes starting together take turns under an
   * advisory lock of ours: pg-boss's own, taken inside its install statement, still let two concurrent installs
   * collide on `CREATE SCHEMA` (found by the test that starts three at once).
   */
  static async open(pool: PgPool, options: PgBossQueueOptions): Promise<PgBossJobQueue> {
    const boss = new PgBoss({
      db: bossDb(pool),
      schema: SCHEMA,
      schedule: false,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    });
    boss.on('error', (error) => options.onError?.(undefined, error));
    const policy = {
      name: RENDER_QUEUE,
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.leaseSeconds,
    };
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [INSTALL_LOCK]);
      await boss.start();
      if (await boss.getQueue(RENDER_QUEUE)) await boss.updateQueue(RENDER_QUEUE, policy);
      else await boss.createQueue(RENDER_QUEUE, policy);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [INSTALL_LOCK]).catch(() => {});
      lock.release();
    }
    return new PgBossJobQueue(pool, boss, options);
  }

  start(handler: (job: Job) => Promise<void>): void {
    this.handler = handler;
    const interval = (this.options.pollingIntervalSeconds ?? 2) * 1000;
    this.pollTimer = setInterval(() => void this.poll(), interval);
    void this.poll();
  }

  /** The render's row and its job in one transaction: a job insert that fails takes the render with it. */
  async submit(render: NewRender): Promise<RenderRow> {
    const created = await transaction(this.pool, async (client) => {
      const row = await this.renders.insert(client, render);
      await this.boss.send(RENDER_QUEUE, { renderId: render.id }, { id: jobIdOf(render.id), db: bossDb(client) });
      return row;
    });
    this.options.onSubmitted?.(created);
    void this.poll();
    return created;
  }

  /**
   * Inserts the job of a render or of one of its chunks. A render's job that failed for good (its retries used up
   * while the database was away) is revived: the sweep of `queued` renders calls this, and a queued render must
   * have a live job.
   */
  async enqueue(renderId: string, chunk?: ChunkJob): Promise<void> {
    const payload: JobPayload = chunk ? { renderId, chunk } : { renderId };
    const id = jobIdOf(jobKey(payload));
    if ((await this.boss.send(RENDER_QUEUE, payload, { id })) === null && !chunk)
      await this.boss.retry(RENDER_QUEUE, id);
    // A process that works the queue takes its own submits without waiting for the next poll.
    void this.poll();
  }

  cancel(renderId: string, reason: AbortReason): void {
    for (const run of this.running.values()) {
      if (run.renderId !== renderId) continue;
      run.released = true;
      run.controller.abort(reason);
    }
    this.cancelJobsOf(renderId).catch((error) => this.options.onError?.(renderId, error));
  }

  /** Cancels the render's unfinished jobs, its chunks' included (their ids are not all known here). */
  private async cancelJobsOf(renderId: string): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND data->>'renderId' = $2 AND state IN ('created', 'retry', 'active')`,
      [RENDER_QUEUE, renderId],
    );
    const ids = [...new Set([jobIdOf(renderId), ...rows.map((row) => row.id)])];
    await this.boss.cancel(RENDER_QUEUE, ids);
  }

  /** pg-boss's own look at its queue: its schema and the render queue are there and answer. */
  async ping(): Promise<void> {
    if (!(await this.boss.getQueue(RENDER_QUEUE))) throw new Error(`pg-boss has no "${RENDER_QUEUE}" queue`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    for (const { controller } of this.running.values()) controller.abort(AbortReason.shutdown);
    await Promise.all([...this.running.values()].map(({ done }) => done));
    await this.boss.stop({ graceful: false, wait: true });
  }

  /** Takes jobs while this process has free slots. */
  private async poll(): Promise<void> {
    if (this.polling || !this.handler) return;
    this.polling = true;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const [job] = await this.boss.fetch<JobPayload>(RENDER_QUEUE, {
          batchSize: 1,
          includeMetadata: true,
        });
        if (!job) break;
        if (this.stopped) await this.handBack(job.id);
        else this.run(job.id, job.retryCount, job.data);
      }
    } catch (error) {
      this.options.onError?.(undefined, error);
    } finally {
      this.polling = false;
    }
  }

  /** `holder` is the job's `retry_count` when this worker fetched it: pg-boss counts up on every later fetch. */
  private run(jobId: string, holder: number, payload: JobPayload): void {
    const { renderId } = payload;
    if (holder > 0) this.options.onRetry?.(payload, holder);
    const controller = new AbortController();
    const renew = setInterval(() => void this.renew(jobId, holder, renderId), (this.options.leaseSeconds * 1000) / 3);
    const entry: Running = {
      renderId,
      controller,
      released: false,
      done: this.handler!({ ...payload, signal: controller.signal, leased: true })
        .then(
          async () => {
            if (entry.released) return;
            if (controller.signal.reason === AbortReason.shutdown) await this.handBack(jobId);
            else await this.boss.complete(RENDER_QUEUE, jobId);
          },
          async (error) => {
            this.options.onError?.(renderId, error);
            if (!entry.released) await this.boss.fail(RENDER_QUEUE, jobId, { message: String(error) });
          },
        )
        .catch((error) => this.options.onError?.(renderId, error))
        .finally(() => {
          clearInterval(renew);
          this.running.delete(jobId);
          void this.poll();
        }),
    };
    this.running.set(jobId, entry);
  }

  /**
   * Moves the lease on (pg-boss measures it from `started_on`). Nothing to renew means the job is no longer this
   * worker's: cancelled (the render was deleted), or expired and maybe fetched by another worker (a higher
   * `retry_count`); either way this worker lets it go.
   */
  private async renew(jobId: string, holder: number, renderId: string): Promise<void> {
    const run = this.running.get(jobId);
    if (!run || run.released) return;
    try {
      const { rows } = await this.pool.query<{ state: string }>(
        `WITH renewed AS (
           UPDATE ${SCHEMA}.job SET started_on = now()
           WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3 RETURNING state
         )
         SELECT state FROM renewed UNION ALL SELECT state FROM ${SCHEMA}.job WHERE name = $1 AND id = $2 AND state = 'cancelled'`,
        [RENDER_QUEUE, jobId, holder],
      );
      if (rows[0]?.state === 'active') return;
      run.released = true;
      run.controller.abort(rows[0]?.state === 'cancelled' ? AbortReason.deleted : AbortReason.leaseLost);
    } catch (error) {
      // A database that is away for a moment costs one renewal; the lease outlasts two more.
      this.options.onError?.(renderId, error);
    }
  }

  /** Makes a job this worker holds available again now (cancel + resume, in one transaction). */
  private async handBack(jobId: string): Promise<void> {
    await transaction(this.pool, async (client) => {
      const db = bossDb(client);
      await this.boss.cancel(RENDER_QUEUE, jobId, { db });
      await this.boss.resume(RENDER_QUEUE, jobId, { db });
    });
  }
}
