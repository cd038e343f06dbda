import {
  FilesRemovalReason,
  type CompletedRender,
  type FilesDue,
  type NewRender,
  type NewWebhookDelivery,
  type RenderFailure,
  type RenderRow,
  type Usage,
} from './render-types.js';
import { RenderStatus } from '../../wire/constants.js';
import { finalStates, RENDER_TRANSITIONS } from './render-state.js';

/**
 * Render records and their state machine (`queued → rendering → completed | failed`, the transitions of
 * render-state.ts). Every transition is conditional on the current state, so a deleted or already-finished render
 * is never moved again. Implementations:
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
  /**
   * Retention, phase 1: marks the files of live renders that finished before `finishedBefore` expired (their links
   * stop); returns how many. Not a transition: the status stays.
   */
  expireFiles(finishedBefore: number, now: number): Promise<number>;
  /**
   * Retention, phase 2: renders whose files are still stored and may go, oldest first: expired before
   * `expiredBefore`, or deleted (live or not) before `deletedBefore`.
   */
  filesDue(expiredBefore: number, deletedBefore: number, limit: number): Promise<FilesDue[]>;
  /** Takes the removal of a due render's files (one conditional UPDATE): true for the one caller that removes them. */
  claimFileRemoval(id: string, now: number, expiredBefore: number, deletedBefore: number): Promise<boolean>;
  /** Gives a taken removal back (the storage failed): the next sweep tries again. */
  releaseFileRemoval(id: string): Promise<void>;
}

/** A render's last states (`completed`, `failed`), as an SQL list: its files are final once it is in one. */
export const SQL_FINISHED = finalStates(RENDER_TRANSITIONS, Object.values(RenderStatus))
  .map((state) => `'${state}'`)
  .join(', ');

/** The states before those, as an SQL list: a render in one still reads its project. */
export const SQL_UNFINISHED = Object.values(RenderStatus)
  .filter((state) => !finalStates(RENDER_TRANSITIONS, Object.values(RenderStatus)).includes(state))
  .map((state) => `'${state}'`)
  .join(', ');

/** The condition of {@link RenderStore.filesDue} and `claimFileRemoval`, given the placeholders of the two times. */
export const FILES_DUE = (expiredBefore: string, deletedBefore: string) =>
  `files_removed_at IS NULL AND (files_expired_at < ${expiredBefore} OR deleted_at < ${deletedBefore})`;

/** A row of {@link FILES_DUE}'s query, as {@link FilesDue}. */
export const toFilesDue = (row: { id: string; finished_at: number | null; deleted_at: number | null }): FilesDue => ({
  id: row.id,
  reason: row.deleted_at === null ? FilesRemovalReason.expired : FilesRemovalReason.deleted,
  finishedAt: row.finished_at,
  deletedAt: row.deleted_at,
});

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
  files_expired_at: number | null;
  files_removed_at: number | null;
}

/**
 * What a request stored before a field existed meant by its absence: before `allow_missing_files`, a missing file
 * refused the render; before stills, GIFs, ranges and metadata, a render had none of them.
 */
const REQUEST_BEFORE_FIELDS = {
  allow_missing_files: false,
  time: null,
  thumbnail_time: null,
  range: null,
  loop: null,
  metadata: null,
} as const;

export const toRender = (row: RenderTableRow): RenderRow => ({
  seq: row.seq,
  id: row.id,
  accountId: row.account_id,
  credentialId: row.credential_id,
  status: row.status,
  request: { ...REQUEST_BEFORE_FIELDS, ...JSON.parse(row.request) },
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
  // Outputs stored before ranges and stills began at 0.
  output: row.output === null ? null : { start: 0, ...JSON.parse(row.output) },
  credits: row.credits,
  deletedAt: row.deleted_at,
  filesExpiredAt: row.files_expired_at,
});
