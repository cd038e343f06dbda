import type { FrameRange } from '../../render/chunks/plan.js';
import { RenderStage, RenderStatus } from '../../wire/constants.js';
import type { Sqlite } from '../db/sqlite.js';
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

/** The render's progress: the frames of its current plan's chunks, summed; never lower than before. */
const SUM_PROGRESS = `UPDATE renders SET stage = '${RenderStage.capturing}', frames_done = MAX(frames_done,
    (SELECT COALESCE(SUM(c.frames_done), 0) FROM render_chunks c WHERE c.render_id = renders.id AND c.render_attempt = renders.attempts))
  WHERE id = ? AND status = '${RenderStatus.rendering}' AND stage <> '${RenderStage.muxing}'`;

export class SqliteChunkStore implements ChunkStore {
  constructor(private readonly db: Sqlite) {}

  async plan(renderId: string, renderAttempt: number, ranges: readonly FrameRange[]) {
    const insert = this.db.prepare(
      `INSERT INTO render_chunks (render_id, render_attempt, idx, frame_from, frame_to, status) VALUES (?, ?, ?, ?, ?, '${CHUNK_INITIAL}')`,
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM render_chunks WHERE render_id = ?').run(renderId);
      ranges.forEach((range, index) => insert.run(renderId, renderAttempt, index, range.from, range.to));
    })();
  }

  async list(renderId: string) {
    return (this.db.prepare('SELECT * FROM render_chunks WHERE render_id = ? ORDER BY idx').all(renderId) as Row[]).map(
      toChunk,
    );
  }

  async claim(
    renderId: string,
    renderAttempt: number,
    index: number,
    worker: string,
    takeOver: boolean,
    maxAttempts: number,
  ) {
    const row = this.db
      .prepare(
        `UPDATE render_chunks SET status = '${CHUNK_TRANSITIONS[claim].to}', attempts = attempts + 1, worker = ?
         WHERE render_id = ? AND render_attempt = ? AND idx = ?
           AND (status IN (${sqlFrom(CHUNK_TRANSITIONS[claim])}) OR (? AND status IN (${sqlFrom(CHUNK_TRANSITIONS[ChunkTransition.takeOver])}) AND attempts < ?))
           AND ${RENDER_ON_PLAN}
         RETURNING *`,
      )
      .get(worker, renderId, renderAttempt, index, takeOver ? 1 : 0, maxAttempts) as Row | undefined;
    return row && toChunk(row);
  }

  async recordProgress(renderId: string, index: number, attempt: number, framesDone: number) {
    this.db.transaction(() => {
      const changed = this.db
        .prepare(
          `UPDATE render_chunks SET frames_done = MAX(frames_done, MIN(?, frame_to - frame_from))
           WHERE render_id = ? AND idx = ? AND attempts = ? AND status = '${ChunkStatus.rendering}'`,
        )
        .run(framesDone, renderId, index, attempt).changes;
      if (changed === 1) this.db.prepare(SUM_PROGRESS).run(renderId);
    })();
  }

  async finish(renderId: string, index: number, attempt: number, fileKey: string, result: StoredChunkResult) {
    return this.db.transaction(() => {
      const changed = this.db
        .prepare(
          `UPDATE render_chunks SET status = '${CHUNK_TRANSITIONS[finish].to}', file_key = ?, result = ?, frames_done = frame_to - frame_from
           WHERE render_id = ? AND idx = ? AND attempts = ? AND status IN (${sqlFrom(CHUNK_TRANSITIONS[finish])}) AND ${RENDER_ON_PLAN}`,
        )
        .run(fileKey, JSON.stringify(result), renderId, index, attempt).changes;
      if (changed === 1) this.db.prepare(SUM_PROGRESS).run(renderId);
      return changed === 1;
    })();
  }

  async release(
    renderId: string,
    index: number,
    attempt: number,
    to: typeof ChunkStatus.queued | typeof ChunkStatus.failed,
    uncount = false,
  ) {
    return (
      this.db
        .prepare(
          `UPDATE render_chunks SET status = ?, attempts = attempts - ?
           WHERE render_id = ? AND idx = ? AND attempts = ? AND status IN (${sqlFrom(CHUNK_TRANSITIONS[retry], CHUNK_TRANSITIONS[fail])})`,
        )
        .run(to, uncount ? 1 : 0, renderId, index, attempt).changes === 1
    );
  }

  async claimJoin(renderId: string, renderAttempt: number, takeOver: boolean) {
    return (
      this.db
        .prepare(
          `UPDATE renders SET stage = '${RenderStage.muxing}'
           WHERE id = ? AND status IN (${sqlFrom(RENDER_TRANSITIONS[RenderTransition.join])}) AND attempts = ? AND deleted_at IS NULL AND (? OR stage <> '${RenderStage.muxing}')
             AND EXISTS (SELECT 1 FROM render_chunks WHERE render_id = ? AND render_attempt = ?)
             AND NOT EXISTS (SELECT 1 FROM render_chunks WHERE render_id = ? AND render_attempt = ? AND status <> '${ChunkStatus.done}')`,
        )
        .run(renderId, renderAttempt, takeOver ? 1 : 0, renderId, renderAttempt, renderId, renderAttempt).changes === 1
    );
  }
}
