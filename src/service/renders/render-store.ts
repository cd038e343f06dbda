import { RenderStatus } from '../../wire/constants.js';
import type {
  CompletedRender,
  NewRender,
  NewWebhookDelivery,
  RenderFailure,
  RenderRow,
  Usage,
} from './render-types.js';

/**
 * Render records and their state machine (`queued → rendering → completed | failed`). Every transition is
 * conditional on the current state, so a deleted or already-finished render is never moved again. Implementations:
 * `render-store.sqlite.ts` and `render-store.postgres.ts`, with the same statements side by side.
 */
export interface RenderStore {
  create(render: NewRender): Promise<void>;
  /** A live (not deleted) render of the account. */
  get(accountId: string, id: string): Promise<RenderRow | undefined>;
  /** A live render of any account (signed links, jobs, webhooks). */
  find(id: string): Promise<RenderRow | undefined>;
  /** Live renders of the account, newest first, with `seq` below `beforeSeq` when given. */
  list(accountId: string, limit: number, beforeSeq?: number): Promise<RenderRow[]>;
  /** Hides the render; returns it as it was, or undefined when there was none. */
  softDelete(accountId: string, id: string, now: number): Promise<RenderRow | undefined>;
  /**
   * `queued → rendering`, counting the attempt; undefined when the render is not (or no longer) queued. With
   * `takeOver`, also `rendering → rendering`: a leased job's new holder takes over a dead worker's render.
   */
  claim(id: string, now: number, takeOver?: boolean): Promise<RenderRow | undefined>;
  recordProgress(id: string, progress: Pick<RenderRow, 'stage' | 'framesDone' | 'framesTotal'>): Promise<void>;
  /**
   * `rendering → completed` (and the webhook, atomically); false when the render left `rendering` meanwhile or is on
   * another attempt than `result.attempt` (taken over).
   */
  complete(id: string, result: CompletedRender, webhook?: NewWebhookDelivery): Promise<boolean>;
  /** `queued | rendering → failed` (and the webhook, atomically); with `attempt`, only while it is on that attempt. */
  fail(
    id: string,
    failure: RenderFailure,
    now: number,
    webhook?: NewWebhookDelivery,
    attempt?: number,
  ): Promise<boolean>;
  /** `rendering → queued` without counting the attempt (graceful shutdown). */
  requeue(id: string): Promise<void>;
  /** Renders left `rendering` by a crash. */
  interrupted(): Promise<RenderRow[]>;
  /** `rendering → queued`, keeping the attempt count (crash recovery). */
  resume(id: string): Promise<void>;
  /** Ids of queued live renders, oldest first. */
  queuedIds(): Promise<string[]>;
  usage(accountId: string, from: number, to: number): Promise<Usage>;
}

/** The statuses `claim` moves from, as an SQL list. */
export const claimable = (takeOver: boolean) =>
  takeOver ? `'${RenderStatus.queued}', '${RenderStatus.rendering}'` : `'${RenderStatus.queued}'`;

/** A row of the `renders` table, as both databases return it. */
export interface RenderTableRow {
  seq: number;
  id: string;
  account_id: string;
  credential_id: string;
  status: RenderRow['status'];
  request: string;
  warnings: string;
  project_key: string;
  stage: RenderRow['stage'];
  frames_done: number;
  frames_total: number | null;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  failure_code: string | null;
  failure_message: string | null;
  video_key: string | null;
  thumbnail_key: string | null;
  output: string | null;
  credits: number | null;
  deleted_at: number | null;
}

export const toRender = (row: RenderTableRow): RenderRow => ({
  seq: row.seq,
  id: row.id,
  accountId: row.account_id,
  credentialId: row.credential_id,
  status: row.status,
  // Renders stored before `allow_missing_files` existed were refused on a missing file.
  request: { allow_missing_files: false, ...JSON.parse(row.request) },
  warnings: JSON.parse(row.warnings),
  projectKey: row.project_key,
  stage: row.stage,
  framesDone: row.frames_done,
  framesTotal: row.frames_total,
  attempts: row.attempts,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
  videoKey: row.video_key,
  thumbnailKey: row.thumbnail_key,
  output: row.output === null ? null : JSON.parse(row.output),
  credits: row.credits,
  deletedAt: row.deleted_at,
});
