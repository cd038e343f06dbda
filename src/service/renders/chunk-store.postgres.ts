import type { FrameRange } from '../../render/chunks/plan.js';
import { RenderStage, RenderStatus } from '../../wire/constants.js';
import { transaction, type PgPool } from '../db/postgres.js';
import {
  RENDER_ON_PLAN,
  toChunk,
  type ChunkStore,
  type ChunkTableRow as Row,
  type StoredChunkResult,
} from './chunk-store.js';
import {
  CHUNK_INITIAL,
  CHUNK_TRANSITIONS,
  ChunkStatus,
  ChunkTransition,
  RENDER_TRANSITIONS,
  RenderTransition,
  sqlFrom,
} from './render-state.js';

const { claim, finish, retry, fail } = ChunkTransition;

const SUM_PROGRESS = `UPDATE renders SET stage = '${RenderStage.capturing}', frames_done = GREATEST(frames_done,
    (SELECT COALESCE(SUM(c.frames_done), 0) FROM render_chunks c WHERE c.render_id = renders.id AND c.render_attempt = renders.attempts))
  WHERE id = $1 AND status = '${RenderStatus.rendering}' AND stage <> '${RenderStage.muxing}'`;

/**
 * The chunk store on PostgreSQL: the statements of `chunk-store.sqlite.ts` with `$n` parameters. Of two workers
 * finishing the last two chunks at once, each claims the join only after its own chunk committed, so the later
 * one sees every chunk done; the render row's lock lets exactly one move the stage to `muxing`.
 */
export class PostgresChunkStore implements ChunkStore {
  constructor(private readonly pool: PgPool) {}

  async plan(renderId: string, renderAttempt: number, ranges: readonly FrameRange[]) {
    await transaction(this.pool, async (client) => {
      await client.query('DELETE FROM render_chunks WHERE render_id = $1', [renderId]);
      for (const [index, range] of ranges.entries())
        await client.query(
          `INSERT INTO render_chunks (render_id, render_attempt, idx, frame_from, frame_to, status) VALUES ($1, $2, $3, $4, $5, '${CHUNK_INITIAL}')`,
          [renderId, renderAttempt, index, range.from, range.to],
        );
    });
  }

  async list(renderId: string) {
    const { rows } = await this.pool.query<Row>('SELECT * FROM render_chunks WHERE render_id = $1 ORDER BY idx', [
      renderId,
    ]);
    return rows.map(toChunk);
  }

  async claim(
    renderId: string,
    renderAttempt: number,
    index: number,
    worker: string,
    takeOver: boolean,
    maxAttempts: number,
  ) {
    const { rows } = await this.pool.query<Row>(
      `UPDATE render_chunks SET status = '${CHUNK_TRANSITIONS[claim].to}', attempts = attempts + 1, worker = $1
       WHERE render_id = $2 AND render_attempt = $3 AND idx = $4
         AND (status IN (${sqlFrom(CHUNK_TRANSITIONS[claim])}) OR ($5::boolean AND status IN (${sqlFrom(CHUNK_TRANSITIONS[ChunkTransition.takeOver])}) AND attempts < $6))
         AND ${RENDER_ON_PLAN}
       RETURNING *`,
      [worker, renderId, renderAttempt, index, takeOver, maxAttempts],
    );
    return rows[0] && toChunk(rows[0]);
  }

  async recordProgress(renderId: string, index: number, attempt: number, framesDone: number) {
    await transaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE render_chunks SET frames_done = GREATEST(frames_done, LEAST($1, frame_to - frame_from))
         WHERE render_id = $2 AND idx = $3 AND attempts = $4 AND status = '${ChunkStatus.rendering}'`,
        [framesDone, renderId, index, attempt],
      );
      if (rowCount === 1) await client.query(SUM_PROGRESS, [renderId]);
    });
  }

  async finish(renderId: string, index: number, attempt: number, fileKey: string, result: StoredChunkResult) {
    return transaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE render_chunks SET status = '${CHUNK_TRANSITIONS[finish].to}', file_key = $1, result = $2, frames_done = frame_to - frame_from
         WHERE render_id = $3 AND idx = $4 AND attempts = $5 AND status IN (${sqlFrom(CHUNK_TRANSITIONS[finish])}) AND ${RENDER_ON_PLAN}`,
        [fileKey, JSON.stringify(result), renderId, index, attempt],
      );
      if (rowCount === 1) await client.query(SUM_PROGRESS, [renderId]);
      return rowCount === 1;
    });
  }

  async release(
    renderId: string,
    index: number,
    attempt: number,
    to: typeof ChunkStatus.queued | typeof ChunkStatus.failed,
    uncount = false,
  ) {
    const { rowCount } = await this.pool.query(
      `UPDATE render_chunks SET status = $1, attempts = attempts - $2
       WHERE render_id = $3 AND idx = $4 AND attempts = $5 AND status IN (${sqlFrom(CHUNK_TRANSITIONS[retry], CHUNK_TRANSITIONS[fail])})`,
      [to, uncount ? 1 : 0, renderId, index, attempt],
    );
    return rowCount === 1;
  }

  async claimJoin(renderId: string, renderAttempt: number, takeOver: boolean) {
    const { rowCount } = await this.pool.query(
      `UPDATE renders SET stage = '${RenderStage.muxing}'
       WHERE id = $1 AND status IN (${sqlFrom(RENDER_TRANSITIONS[RenderTransition.join])}) AND attempts = $2 AND deleted_at IS NULL AND ($3::boolean OR stage <> '${RenderStage.muxing}')
         AND EXISTS (SELECT 1 FROM render_chunks WHERE render_id = $1 AND render_attempt = $2)
         AND NOT EXISTS (SELECT 1 FROM render_chunks WHERE render_id = $1 AND render_attempt = $2 AND status <> '${ChunkStatus.done}')`,
      [renderId, renderAttempt, takeOver],
    );
    return rowCount === 1;
  }
}
