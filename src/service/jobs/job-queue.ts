import type { NewRender, RenderRow } from '../renders/render-types.js';

/** Why a running job was aborted. */
export const AbortReason = {
  deleted: 'render_deleted',
  shutdown: 'service_shutdown',
  /** The job's lease expired (a worker cut off from the database): another worker may hold it now. */
  leaseLost: 'lease_lost',
} as const;
export type AbortReason = (typeof AbortReason)[keyof typeof AbortReason];

export interface Job {
  readonly renderId: string;
  /** Aborted with an {@link AbortReason} when the render is deleted or the service stops. */
  readonly signal: AbortSignal;
  /**
   * Set by a queue that brings a dead worker's job back after its lease (pg-boss): only one worker holds the job at
   * a time, so a render this job finds `rendering` was interrupted and is taken over.
   */
  readonly leased?: boolean;
}

/**
 * Runs render jobs. The render records stay the source of truth (a job only carries the id), so a swap to
 * pg-boss or BullMQ keeps the same contract: enqueue an id, run a handler with bounded concurrency, cancel by id.
 */
export interface JobQueue {
  start(handler: (job: Job) => Promise<void>): void;
  /**
   * Stores a new render `queued` and its job as one, and returns the stored row: with pg-boss both are inserted in
   * one PostgreSQL transaction, so a submit that returns has its job and one that fails leaves neither.
   */
  submit(render: NewRender): Promise<RenderRow>;
  /** Gives an already stored render its job (none is added when it has one). */
  enqueue(renderId: string): Promise<void>;
  /** Drops a pending job or aborts a running one. */
  cancel(renderId: string, reason: AbortReason): void;
  /** Aborts running jobs with `shutdown` and waits for them to settle. */
  stop(): Promise<void>;
}
