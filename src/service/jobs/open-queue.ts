import type { ResolvedConfig } from '../config.js';
import type { Stores } from '../db/stores.js';
import type { JobQueue } from './job-queue.js';
import { LocalJobQueue } from './job-queue.local.js';

/**
 * The job queue of a service: pg-boss over the records' PostgreSQL pool (shared by every process on the database),
 * else the in-process queue next to SQLite. pg-boss is loaded only by a service that uses it.
 */
export async function openJobQueue(config: ResolvedConfig, stores: Stores): Promise<JobQueue> {
  const onError = (renderId: string | undefined, error: unknown) =>
    renderId === undefined
      ? config.log('job queue error', { error: String(error) })
      : config.log('job crashed', { renderId, error: String(error) });
  if (!stores.postgres) return new LocalJobQueue(stores.renders, config.concurrency, onError);
  const { PgBossJobQueue } = await import('./job-queue.pgboss.js');
  return PgBossJobQueue.open(stores.postgres, {
    ...config.queue,
    concurrency: config.concurrency,
    // One more than the render's attempts: the job that finds them used up fails the render (`failIfExhausted`).
    retryLimit: config.maxAttempts,
    onError,
  });
}
