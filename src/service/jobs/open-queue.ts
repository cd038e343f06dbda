import type { ResolvedConfig } from '../config.js';
import type { Stores } from '../db/stores.js';
import type { ServiceEvents } from '../observe/events.js';
import { observeSubmit } from '../observe/observed-renders.js';
import type { RenderRow } from '../renders/render-types.js';
import type { JobQueue } from './job-queue.js';
import { LocalJobQueue } from './job-queue.local.js';

/**
 * The job queue of a service: pg-boss over the records' PostgreSQL pool (shared by every process on the database),
 * else the in-process queue next to SQLite. pg-boss is loaded only by a service that uses it.
 */
export async function openJobQueue(config: ResolvedConfig, stores: Stores, events?: ServiceEvents): Promise<JobQueue> {
  const onError = (renderId: string | undefined, error: unknown) =>
    renderId === undefined
      ? config.log('job queue error', { error: String(error) })
      : config.log('job crashed', { renderId, error: String(error) });
  const onSubmitted = (render: RenderRow) => events && observeSubmit(events, render);
  if (!stores.postgres) return new LocalJobQueue(stores.renders, config.concurrency, onError, onSubmitted);
  const { PgBossJobQueue } = await import('./job-queue.pgboss.js');
  return PgBossJobQueue.open(stores.postgres, {
    ...config.queue,
    concurrency: config.concurrency,
    // One more than the render's attempts: the job that finds them used up fails the render (`afterInterruption`).
    retryLimit: config.maxAttempts,
    onError,
    onSubmitted,
    onRetry: (job, retry) =>
      events?.emit('jobRetried', {
        renderId: job.renderId,
        ...(job.chunk ? { chunk: job.chunk.index } : {}),
        retry,
        reason: 'queue',
      }),
  });
}
