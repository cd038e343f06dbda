import { RenderStage, RenderStatus } from '../../wire/constants.js';
import { retryOnConnectionLoss, transaction, type PgPool, type Queryable } from '../db/postgres.js';
import { insertWebhookDelivery } from '../webhooks/outbox.postgres.js';
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

/**
 * The render store on PostgreSQL: the statements of `render-store.sqlite.ts` with `$n` parameters. A transition is
 * one conditional `UPDATE … WHERE status = …`; under READ COMMITTED a second writer waits for the first's row lock,
 * re-checks the condition on the committed row and matches nothing, so of two processes racing a transition
 * exactly one applies it.
 */
export class PostgresRenderStore implements RenderStore {
  constructor(private readonly pool: PgPool) {}

  private async one(sql: string, params: unknown[]): Promise<RenderRow | undefined> {
    const { rows } = await this.pool.query<Row>(sql, params);
    return rows[0] && toRender(rows[0]);
  }

  /**
   * Runs a state change and, when it applied, inserts its webhook in the same transaction. A connection lost on the
   * way is waited out (`retryOnConnectionLoss`): the change is conditional, so a retry after a COMMIT that did go
   * through applies nothing. Without it, a database restart while a render was being completed turned the render
   * into `render_failed` (the job took the lost connection for the renderer's error; found by the fault matrix).
   */
  private transition(sql: string, params: unknown[], webhook: NewWebhookDelivery | undefined): Promise<boolean> {
    return retryOnConnectionLoss(() =>
      transaction(this.pool, async (client) => {
        const applied = (await client.query(sql, params)).rowCount === 1;
        if (applied && webhook) await insertWebhookDelivery(client, webhook);
        return applied;
      }),
    );
  }

  async create(render: NewRender) {
    await this.insert(this.pool, render);
  }

  /** Inserts a new render through `db` (the job queue's transaction, or the pool) and returns its row. */
  async insert(db: Queryable, render: NewRender): Promise<RenderRow> {
    const { rows } = await db.query<Row>(
      `INSERT INTO renders (id, account_id, credential_id, status, request, warnings, project_key, created_at)
       VALUES ($1, $2, $3, '${RENDER_INITIAL}', $4, $5, $6, $7) RETURNING *`,
      [
        render.id,
        render.accountId,
        render.credentialId,
        JSON.stringify(render.request),
        JSON.stringify(render.warnings),
        render.projectKey,
        render.createdAt,
      ],
    );
    return toRender(rows[0]!);
  }

  async get(accountId: string, id: string) {
    return this.one(`SELECT * FROM renders WHERE id = $1 AND account_id = $2 AND ${LIVE}`, [id, accountId]);
  }

  async find(id: string) {
    return this.one(`SELECT * FROM renders WHERE id = $1 AND ${LIVE}`, [id]);
  }

  async list(accountId: string, limit: number, beforeSeq?: number) {
    const { rows } = await this.pool.query<Row>(
      `SELECT * FROM renders WHERE account_id = $1 AND ${LIVE} AND seq < $2 ORDER BY seq DESC LIMIT $3`,
      [accountId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit],
    );
    return rows.map(toRender);
  }

  async softDelete(accountId: string, id: string, now: number) {
    // One statement: the row as it was, locked, then hidden.
    return this.one(
      `WITH old AS (SELECT * FROM renders WHERE id = $1 AND account_id = $2 AND ${LIVE} FOR UPDATE)
       UPDATE renders SET deleted_at = $3 FROM old WHERE renders.id = old.id RETURNING old.*`,
      [id, accountId, now],
    );
  }

  async claim(id: string, now: number, takeOver = false) {
    return this.one(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[claim].to}', attempts = attempts + 1, started_at = COALESCE(started_at, $2),
         stage = '${RenderStage.compiling}', frames_done = 0, frames_total = NULL
       WHERE id = $1 AND status IN (${claimable(takeOver)}) AND ${LIVE} RETURNING *`,
      [id, now],
    );
  }

  async recordProgress(id: string, progress: Pick<RenderRow, 'stage' | 'framesDone' | 'framesTotal'>) {
    await this.pool.query(
      `UPDATE renders SET stage = $2, frames_done = $3, frames_total = $4 WHERE id = $1 AND status = '${RenderStatus.rendering}'`,
      [id, progress.stage, progress.framesDone, progress.framesTotal],
    );
  }

  async complete(id: string, result: CompletedRender, webhook?: NewWebhookDelivery) {
    return this.transition(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[complete].to}', stage = '${RenderStage.done}', frames_done = $2, frames_total = $2, finished_at = $3,
         video_key = $4, thumbnail_key = $5, output = $6, credits = $7, warnings = $8
       WHERE id = $1 AND status IN (${sqlFrom(RENDER_TRANSITIONS[complete])}) AND attempts = $9 AND ${LIVE}`,
      [
        id,
        result.output.frames,
        result.finishedAt,
        result.videoKey,
        result.thumbnailKey,
        JSON.stringify(result.output),
        result.credits,
        JSON.stringify(result.warnings),
        result.attempt,
      ],
      webhook,
    );
  }

  async fail(id: string, failure: RenderFailure, now: number, webhook?: NewWebhookDelivery, attempt?: number) {
    return this.transition(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[fail].to}', finished_at = $2, failure_code = $3, failure_message = $4
       WHERE id = $1 AND status IN (${sqlFrom(RENDER_TRANSITIONS[fail])}) AND ($5::int IS NULL OR attempts = $5) AND ${LIVE}`,
      [id, now, failure.code, failure.message, attempt ?? null],
      webhook,
    );
  }

  async requeue(id: string) {
    await this.pool.query(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[requeue].to}', stage = '${RenderStage.queued}', attempts = GREATEST(attempts - 1, 0) WHERE id = $1 AND status IN (${sqlFrom(RENDER_TRANSITIONS[requeue])})`,
      [id],
    );
  }

  async interrupted() {
    const { rows } = await this.pool.query<Row>(
      `SELECT * FROM renders WHERE status = '${RenderStatus.rendering}' AND ${LIVE} ORDER BY seq`,
    );
    return rows.map(toRender);
  }

  async resume(id: string) {
    await this.pool.query(
      `UPDATE renders SET status = '${RENDER_TRANSITIONS[resume].to}', stage = '${RenderStage.queued}' WHERE id = $1 AND status IN (${sqlFrom(RENDER_TRANSITIONS[resume])})`,
      [id],
    );
  }

  async queuedIds() {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM renders WHERE status = '${RenderStatus.queued}' AND ${LIVE} ORDER BY seq`,
    );
    return rows.map((row) => row.id);
  }

  async usage(accountId: string, from: number, to: number) {
    const { rows } = await this.pool.query<{ total: number; completed: number; failed: number; credits: number }>(
      `SELECT COUNT(*) AS total,
              COUNT(*) FILTER (WHERE status = '${RenderStatus.completed}') AS completed,
              COUNT(*) FILTER (WHERE status = '${RenderStatus.failed}') AS failed,
              COALESCE(SUM(credits), 0) AS credits
       FROM renders WHERE account_id = $1 AND created_at >= $2 AND created_at < $3`,
      [accountId, from, to],
    );
    const row = rows[0]!;
    return {
      creditsUsed: Math.round(row.credits * 100) / 100,
      rendersTotal: row.total,
      rendersCompleted: row.completed,
      rendersFailed: row.failed,
    };
  }

  async expireFiles(finishedBefore: number, now: number) {
    const { rowCount } = await this.pool.query(
      `UPDATE renders SET files_expired_at = $1
       WHERE files_expired_at IS NULL AND ${LIVE} AND status IN (${SQL_FINISHED}) AND finished_at < $2`,
      [now, finishedBefore],
    );
    return rowCount ?? 0;
  }

  async filesDue(expiredBefore: number, deletedBefore: number, limit: number) {
    const { rows } = await this.pool.query<Parameters<typeof toFilesDue>[0]>(
      `SELECT id, finished_at, deleted_at FROM renders WHERE ${FILES_DUE('$1', '$2')} ORDER BY seq LIMIT $3`,
      [expiredBefore, deletedBefore, limit],
    );
    return rows.map(toFilesDue);
  }

  async claimFileRemoval(id: string, now: number, expiredBefore: number, deletedBefore: number) {
    // Of two processes, the second waits for the first's row lock, re-checks on the committed row and matches nothing.
    const { rowCount } = await this.pool.query(
      `UPDATE renders SET files_removed_at = $1 WHERE id = $2 AND ${FILES_DUE('$3', '$4')}`,
      [now, id, expiredBefore, deletedBefore],
    );
    return rowCount === 1;
  }

  async releaseFileRemoval(id: string) {
    await this.pool.query('UPDATE renders SET files_removed_at = NULL WHERE id = $1', [id]);
  }
}
