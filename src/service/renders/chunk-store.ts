import { RenderStatus } from '../../wire/constants.js';
import type { FrameRange } from '../../render/chunks/plan.js';
import type { ChunkResult } from '../../render/chunks/render.js';
import type { ChunkStatus } from './render-state.js';

/** SQL (both databases): the chunk's render is live, `rendering` and on the attempt that planned the chunk. */
export const RENDER_ON_PLAN = `EXISTS (SELECT 1 FROM renders r WHERE r.id = render_chunks.render_id
  AND r.status = '${RenderStatus.rendering}' AND r.attempts = render_chunks.render_attempt AND r.deleted_at IS NULL)`;

/** What the join needs of a rendered chunk: its result without the local path (stored as JSON). */
export type StoredChunkResult = Omit<ChunkResult, 'path'>;

/** One frame range of a chunked render, as stored. */
export interface ChunkRow extends FrameRange {
  readonly renderId: string;
  /** The render attempt that planned it: chunks of an earlier plan are replaced and never joined. */
  readonly renderAttempt: number;
  readonly index: number;
  readonly status: ChunkStatus;
  /** Starts of this chunk (a fencing token: a taken-over chunk is on a later attempt). */
  readonly attempts: number;
  /** The most frames any attempt of it reached. */
  readonly framesDone: number;
  /** Where the rendered chunk file is stored (`StorageKey.chunk`), once `done`. */
  readonly fileKey: string | null;
  readonly result: StoredChunkResult | null;
  /** The worker (`workerId`) of the latest attempt. */
  readonly worker: string | null;
}

/**
 * The chunks of chunked renders, next to the render records. Every transition is one conditional UPDATE, and a
 * chunk moves only while its render is live, `rendering` and on the attempt that planned it. Implementations:
 * `chunk-store.sqlite.ts`, `chunk-store.postgres.ts`, the same statements side by side.
 */
export interface ChunkStore {
  /** Replaces the render's chunks with `ranges`, all `queued`, planned on `renderAttempt`. */
  plan(renderId: string, renderAttempt: number, ranges: readonly FrameRange[]): Promise<void>;
  /** The render's chunks in frame order. */
  list(renderId: string): Promise<ChunkRow[]>;
  /**
   * `queued → rendering`, counting the attempt and naming the worker. With `takeOver` (a leased job's new holder),
   * also `rendering → rendering` while the chunk has attempts left below `maxAttempts`.
   */
  claim(
    renderId: string,
    renderAttempt: number,
    index: number,
    worker: string,
    takeOver: boolean,
    maxAttempts: number,
  ): Promise<ChunkRow | undefined>;
  /**
   * Raises the chunk's frames done (never lowers them) and sums its render's progress over its chunks, in the
   * render's record (`capturing`); nothing once the chunk left `attempt` or the render is joining.
   */
  recordProgress(renderId: string, index: number, attempt: number, framesDone: number): Promise<void>;
  /** `rendering → done` on `attempt`, with the stored file; false when the chunk or its render moved on. */
  finish(
    renderId: string,
    index: number,
    attempt: number,
    fileKey: string,
    result: StoredChunkResult,
  ): Promise<boolean>;
  /**
   * `rendering → queued` (a retry, or with `uncount` a hand-back at shutdown that gives the attempt back) or
   * `rendering → failed`, on `attempt`; false when the chunk moved on.
   */
  release(
    renderId: string,
    index: number,
    attempt: number,
    to: typeof ChunkStatus.queued | typeof ChunkStatus.failed,
    uncount?: boolean,
  ): Promise<boolean>;
  /**
   * Decides the one joiner: moves the render's stage to `muxing` when every chunk of `renderAttempt` is `done` and
   * no one joins yet (with `takeOver`, also when a dead worker was joining). True for the caller that moved it.
   */
  claimJoin(renderId: string, renderAttempt: number, takeOver: boolean): Promise<boolean>;
}

/** A row of the `render_chunks` table, as both databases return it. */
export interface ChunkTableRow {
  render_id: string;
  render_attempt: number;
  idx: number;
  frame_from: number;
  frame_to: number;
  status: ChunkStatus;
  attempts: number;
  frames_done: number;
  file_key: string | null;
  result: string | null;
  worker: string | null;
}

export const toChunk = (row: ChunkTableRow): ChunkRow => ({
  renderId: row.render_id,
  renderAttempt: row.render_attempt,
  index: row.idx,
  from: row.frame_from,
  to: row.frame_to,
  status: row.status,
  attempts: row.attempts,
  framesDone: row.frames_done,
  fileKey: row.file_key,
  result: row.result === null ? null : JSON.parse(row.result),
  worker: row.worker,
});
