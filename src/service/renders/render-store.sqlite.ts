import { RenderStage, RenderStatus } from '../../wire/constants.js';
import type { Sqlite } from '../db/sqlite.js';
import { insertWebhookDelivery } from '../webhooks/outbox.sqlite.js';
import {
  FILES_DUE,
  SQL_FINISHED,
  toFilesDue,
  toRender,
  type RenderStore,
  type RenderTableRow as Row,
} from './render-store.js';
import { RENDER_INITIAL, RENDER_TRANSITIONS, RenderTransition, sqlFrom } from './render-state.js';
import type { CompletedRender, NewRender, NewWebhookDelivery, RenderFailure, RenderRow } from './render-types.js';

const LIVE = 'deleted_at IS NULL';
const { claim, complete, fail, requeue, resume } = RenderTransition;
/** The statuses `claim` moves from (with `takeOver`, a leased job's new holder's too), as an SQL list. */
const claimable = (orTakeOver: boolean) =>
  orTakeOver
    ? sqlFrom(RENDER_TRANSITIONS[claim], RENDER_TRANSITIONS[RenderTransition.takeOver])
    : sqlFrom(RENDER_TRANSITIONS[claim]);

export class SqliteRenderStore implements RenderStore {
  constructor(private readonly db: Sqlite) {}

  private one(sql: string, ...params: unknown[]): RenderRow | undefined {
    const row = this.db.prepare(sql).get(...params) as Row | undefined;
    return row && toRender(row);
  }

  /** Runs a state change and, when it applied, inserts its webhook in the same transaction. */
  private transition(sql: string, params: unknown[], webhook: NewWebhookDelivery | undefined): boolean {
    return this.db.transaction(() => {
      const applied = this.db.prepare(sql).run(...params).changes === 1;
      if (applied && webhook) insertWebhookDelivery(this.db, webhook);
      return applied;
    })();
  }

  async create(render: NewRender) {
    this.db
      .prepare(
        `INSERT INTO renders (id, account_id, credential_id, status, request, warnings, project_key, created_at)
         VALUES (?, ?, ?, '${RENDER_INITIAL}', ?, ?, ?, ?)`,
      )
      .run(
        render.id,
        render.accountId,
        render.credentialId,
        JSON.stringify(render.request),
        JSON.stringify(render.warnings),
        render.projectKey,
        render.createdAt,
      );
  }

  async get(accountId: string, id: string) {
    return this.one(`SELECT * FROM renders WHERE id = ? AND account_id = ? AND ${LIVE}`, id, accountId);
  }

  async find(id: string) {
    return this.one(`SELECT * FROM renders WHERE id = ? AND ${LIVE}`, id);
  }

  async list(accountId: string, limit: number, beforeSeq?: number) {
    const rows = this.db
      .prepare(`SELECT * FROM renders WHERE account_id = ? AND ${LIVE} AND seq < ? ORDER BY seq DESC LIMIT ?`)
      .all(accountId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as Row[];
    return rows.map(toRender);
  }

  async softDelete(accountId: string, id: string, now: number) {
    return this.db.transaction(() => {
      const render = this.one(`SELECT * FROM renders WHERE id = ? AND account_id = ? AND ${LIVE}`, id, accountId);
      if (render) this.db.prepare('UPDATE renders SET deleted_at = ? WHERE id = ?').run(now, id);
      return render;
    })();
  }

  async claim(id: string, now: number, takeOver = false) {
    const changed = this.db
      .prepare(
        `UPDATE renders SET status = '${RENDER_TRANSITIONS[claim].to}', attempts = attempts + 1, started_at = COALESCE(started_at, ?),
           stage = '${RenderStage.compiling}', frames_done = 0, frames_total = NULL
         WHERE id = ? AND status IN (${claimable(takeOver)}) AND ${LIVE}`,
      )
      .run(now, id).changes;
    return changed === 1 ? this.find(id) : undefined;
  }

  async recordProgress(id: string, progress: Pick<RenderRow, 'stage' | 'framesDone' | 'framesTotal'>) {
    this.db
      .prepare(
        `UPDATE renders SET stage = ?, frames_done = ?, frames_total = ? WHERE id = ? AND status = '${RenderStatus.rendering}'`,
      )
      .run(progress.stage, progress.framesDone, progress.framesTotal, id);
  }

  async complete(id: string, result: CompletedRender, webhook?: NewWebhookDelivery) {
    return this.transition(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[complete].to}', stage = '${RenderStage.done}', frames_done = ?, frames_total = ?, finished_at = ?,
         video_key = ?, thumbnail_key = ?, output = ?, credits = ?, warnings = ?
       WHERE id = ? AND status IN (${sqlFrom(RENDER_TRANSITIONS[complete])}) AND attempts = ? AND ${LIVE}`,
      [
        result.output.frames,
        result.output.frames,
        result.finishedAt,
        result.videoKey,
        result.thumbnailKey,
        JSON.stringify(result.output),
        result.credits,
        JSON.stringify(result.warnings),
        id,
        result.attempt,
      ],
      webhook,
    );
  }

  async fail(id: string, failure: RenderFailure, now: number, webhook?: NewWebhookDelivery, attempt?: number) {
    return this.transition(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[fail].to}', finished_at = ?, failure_code = ?, failure_message = ?
       WHERE id = ? AND status IN (${sqlFrom(RENDER_TRANSITIONS[fail])}) AND (? IS NULL OR attempts = ?) AND ${LIVE}`,
      [now, failure.code, failure.message, id, attempt ?? null, attempt ?? null],
      webhook,
    );
  }

  async requeue(id: string) {
    this.db
      .prepare(
        `UPDATE renders SET status = '${RENDER_TRANSITIONS[requeue].to}', stage = '${RenderStage.queued}', attempts = MAX(attempts - 1, 0) WHERE id = ? AND status IN (${sqlFrom(RENDER_TRANSITIONS[requeue])})`,
      )
      .run(id);
  }

  async interrupted() {
    return (
      this.db
        .prepare(`SELECT * FROM renders WHERE status = '${RenderStatus.rendering}' AND ${LIVE} ORDER BY seq`)
        .all() as Row[]
    ).map(toRender);
  }

  async resume(id: string) {
    this.db
      .prepare(
        `UPDATE renders SET status = '${RENDER_TRANSITIONS[resume].to}', stage = '${RenderStage.queued}' WHERE id = ? AND status IN (${sqlFrom(RENDER_TRANSITIONS[resume])})`,
      )
      .run(id);
  }

  async queuedIds() {
    return (
      this.db
        .prepare(`SELECT id FROM renders WHERE status = '${RenderStatus.queued}' AND ${LIVE} ORDER BY seq`)
        .all() as { id: string }[]
    ).map((row) => row.id);
  }

  async usage(accountId: string, from: number, to: number) {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS total,
                COALESCE(SUM(status = '${RenderStatus.completed}'), 0) AS completed,
                COALESCE(SUM(status = '${RenderStatus.failed}'), 0) AS failed,
                COALESCE(SUM(credits), 0) AS credits
         FROM renders WHERE account_id = ? AND created_at >= ? AND created_at < ?`,
      )
      .get(accountId, from, to) as { total: number; completed: number; failed: number; credits: number };
    return {
      creditsUsed: Math.round(row.credits * 100) / 100,
      rendersTotal: row.total,
      rendersCompleted: row.completed,
      rendersFailed: row.failed,
    };
  }

  async expireFiles(finishedBefore: number, now: number) {
    return this.db
      .prepare(
        `UPDATE renders SET files_expired_at = ?
         WHERE files_expired_at IS NULL AND ${LIVE} AND status IN (${SQL_FINISHED}) AND finished_at < ?`,
      )
      .run(now, finishedBefore).changes;
  }

  async filesDue(expiredBefore: number, deletedBefore: number, limit: number) {
    const rows = this.db
      .prepare(`SELECT id, finished_at, deleted_at FROM renders WHERE ${FILES_DUE('?', '?')} ORDER BY seq LIMIT ?`)
      .all(expiredBefore, deletedBefore, limit) as Parameters<typeof toFilesDue>[0][];
    return rows.map(toFilesDue);
  }

  async claimFileRemoval(id: string, now: number, expiredBefore: number, deletedBefore: number) {
    return (
      this.db
        .prepare(`UPDATE renders SET files_removed_at = ? WHERE id = ? AND ${FILES_DUE('?', '?')}`)
        .run(now, id, expiredBefore, deletedBefore).changes === 1
    );
  }

  async releaseFileRemoval(id: string) {
    this.db.prepare('UPDATE renders SET files_removed_at = NULL WHERE id = ?').run(id);
  }
}
