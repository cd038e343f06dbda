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
 * conditional on the current state, so a deleted or already-finished render is never moved again. The SQLite
 * implementation is {@link SqliteRenderStore}; a Postgres one keeps the same statements (docs/service.md).
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
  /** `queued → rendering`, counting the attempt; undefined when the render is not (or no longer) queued. */
  claim(id: string, now: number): Promise<RenderRow | undefined>;
  recordProgress(id: string, progress: Pick<RenderRow, 'stage' | 'framesDone' | 'framesTotal'>): Promise<void>;
  /** `rendering → completed` (and the webhook, atomically); false when the render left `rendering` meanwhile. */
  complete(id: string, result: CompletedRender, webhook?: NewWebhookDelivery): Promise<boolean>;
  /** `queued | rendering → failed` (and the webhook, atomically). */
  fail(id: string, failure: RenderFailure, now: number, webhook?: NewWebhookDelivery): Promise<boolean>;
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
