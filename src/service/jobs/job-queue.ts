import { FailureCode } from '../../wire/constants.js';
import type { NewRender, RenderRow } from '../renders/render-types.js';

/** Why a running job was aborted. */
export const AbortReason = {
  deleted: 'render_deleted',
  shutdown: 'service_shutdown',
  /** The job's lease expired (a worker cut off from the database): another worker may hold it now. */
  leaseLost: 'lease_lost',
  /** Another chunk of the render failed for good: the render failed, its other chunks stop. */
  failed: FailureCode.failed,
} as const;
export type AbortReason = (typeof AbortReason)[keyof typeof AbortReason];

/** A chunk job: one frame range of a chunked render (see chunk-job.ts). */
export interface ChunkJob {
  readonly index: number;
  /** The render attempt that planned the chunk: a job of an earlier plan finds nothing to do. */
  readonly renderAttempt: number;
  /** The chunk attempt the job was enqueued for; part of its identity, so a retry is a new job. */
  readonly attempt: number;
}

/** What a job runs: a render (planned into chunks when long), or one chunk of a render. */
export interface JobPayload {
  readonly renderId: string;
  readonly chunk?: ChunkJob;
}

/** A job's identity in a queue: the render id, or the chunk's place in it. */
export const jobKey = ({ renderId, chunk }: JobPayload): string =>
  chunk ? `${renderId}/chunk/${chunk.renderAttempt}/${chunk.index}/${chunk.attempt}` : renderId;

export interface Job extends JobPayload {
  /** Aborted with an {@link AbortReason} when the render is deleted or the service stops. */
  readonly signal: AbortSignal;
  /**
   * Set by a queue that brings a dead worker's job back after its lease (pg-boss): only one worker holds the job at
   * a time, so a render this job finds `rendering` was interrupted and is taken over.
   */
  readonly leased?: boolean;
}

/**
 * Runs render jobs. The render records stay the source of truth (a job only carries the id, and a chunk job its
 * place), so a swap to pg-boss or BullMQ keeps the same contract: enqueue an id, run a handler with bounded
 * concurrency, cancel by id. Enqueueing a job that is already queued or running adds nothing.
 */
export interface JobQueue {
  start(handler: (job: Job) => Promise<void>): void;
  /**
   * Stores a new render `queued` and its job as one, and returns the stored row: with pg-boss both are inserted in
   * one PostgreSQL transaction, so a submit that returns has its job and one that fails leaves neither.
   */
  submit(render: NewRender): Promise<RenderRow>;
  /** Gives an already stored render (or one of its chunks) its job (none is added when it has one). */
  enqueue(renderId: string, chunk?: ChunkJob): Promise<void>;
  /** Drops the render's pending jobs (its chunks' too) and aborts its running ones. */
  cancel(renderId: string, reason: AbortReason): void;
  /** Aborts running jobs with `shutdown` and waits for them to settle. */
  stop(): Promise<void>;
  /** Resolves when a queue kept outside the process answers (readiness); an in-process queue has none. */
  ping?(): Promise<void>;
}
