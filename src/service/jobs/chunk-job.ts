import { join } from 'node:path';
import { FxError } from '../../runtime/errors.js';
import { FailureCode } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import type { ChunkRow } from '../renders/chunk-store.js';
import {
  afterChunkError,
  afterDeadChunkHolder,
  ChunkStatus,
  ChunkTransition,
  RenderTransition,
} from '../renders/render-state.js';
import type { RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';
import { ChunkOutcome, type ChunkJobFinished } from '../observe/events.js';
import type { AbortReason, ChunkJob, Job } from './job-queue.js';
import { failChunkedRender } from './chunk-failure.js';
import { runJoin } from './join-job.js';
import { renderInputs } from './renderer-inputs.js';
import { throttledProgress } from './throttled-progress.js';
import { makeWorkDir, removeWorkDir } from './work-dir.js';

/**
 * Runs one chunk of a chunked render: claims it (`queued → rendering`, naming this worker), renders its frames with
 * `renderChunk`, stores the file and marks it `done`, with the render's progress summed over its chunks. The worker
 * whose chunk completes the set claims the join (one conditional update decides) and joins. A chunk that fails is
 * queued again as a job of its own, up to `maxAttempts` starts; then the render fails with the chunk's code, once,
 * its other chunks are cancelled and the chunk files removed. A leased job (pg-boss) takes over what a dead worker
 * held: its chunk, or the join.
 */
export async function runChunkJob(context: ServiceContext, job: Job & { chunk: ChunkJob }): Promise<void> {
  const { config, chunks } = context;
  const { renderId, chunk, signal } = job;
  const takeOver = job.leased ?? false;
  const row = await chunks.claim(
    renderId,
    chunk.renderAttempt,
    chunk.index,
    config.workerId,
    takeOver,
    config.maxAttempts,
  );
  const render = await context.renders.find(renderId);
  if (!render) return;
  if (!row) {
    if (takeOver) await afterDeadHolder(context, render, chunk, signal);
    return;
  }
  if ((await renderOne(context, render, row, job)) && (await chunks.claimJoin(renderId, chunk.renderAttempt, false)))
    await runJoin(context, render, chunk.renderAttempt, signal);
}

/**
 * A leased job whose chunk was not claimable: its holder died while rendering it with no attempt left (the render
 * fails with `render_interrupted`), or after rendering it, before or while joining (this worker joins).
 */
async function afterDeadHolder(context: ServiceContext, render: RenderRow, chunk: ChunkJob, signal: AbortSignal) {
  const row = (await context.chunks.list(render.id)).find(
    (candidate) => candidate.index === chunk.index && candidate.renderAttempt === chunk.renderAttempt,
  );
  const next = afterDeadChunkHolder(row?.status);
  if (row && next.chunk === ChunkTransition.fail) {
    if (await context.chunks.release(render.id, row.index, row.attempts, ChunkStatus.failed)) {
      const error = new FxError(FailureCode.interrupted, `chunk ${row.index} was interrupted ${row.attempts} time(s)`);
      await failChunkedRender(context, render, error, chunk.renderAttempt);
    }
  } else if (
    next.render === RenderTransition.join &&
    (await context.chunks.claimJoin(render.id, chunk.renderAttempt, true))
  )
    await runJoin(context, render, chunk.renderAttempt, signal);
}

/** Renders, stores and finishes the claimed chunk; true when it is `done`. */
async function renderOne(context: ServiceContext, render: RenderRow, row: ChunkRow, job: Job) {
  const { config, chunks, storage } = context;
  const { signal } = job;
  const { format } = render.request;
  let workDir: string | undefined;
  let projectDir: string | undefined;
  const started = Date.now();
  const said = (outcome: ChunkOutcome, failureCode?: string) =>
    context.events.emit('chunkJobFinished', {
      renderId: render.id,
      chunk: row.index,
      attempt: row.attempts,
      outcome,
      frames: row.to - row.from,
      ms: Date.now() - started,
      ...(failureCode === undefined ? {} : { failureCode }),
    } satisfies ChunkJobFinished);
  try {
    workDir = await makeWorkDir(config.dataDir, render.id, `chunk-${row.index}`);
    signal.throwIfAborted();
    projectDir = await storage.localDirectory(render.projectKey);
    // The chunk's frames are frames of the composition, planned within the range; the range itself tells the
    // join what the output is (its audio, its thumbnail).
    const { path, ...result } = await config.chunkRenderer.renderChunk({
      ...renderInputs(context, render, projectDir),
      chunk: { from: row.from, to: row.to },
      outputPath: join(workDir, `chunk.${format}`),
      signal,
      onProgress: throttledProgress(context, render.id, (progress) =>
        chunks.recordProgress(render.id, row.index, row.attempts, progress.framesDone),
      ),
    });
    if (signal.aborted) throw signal.reason;
    const fileKey = StorageKey.chunk(render.id, row.index, row.attempts, format);
    await storage.putFile(fileKey, path);
    if (await chunks.finish(render.id, row.index, row.attempts, fileKey, result)) {
      // Per-chunk cost, for capacity planning (docs/service.md): rendering and storing, this worker.
      const details = { renderId: render.id, chunk: row.index, attempt: row.attempts, frames: row.to - row.from };
      config.log('render chunk done', { ...details, worker: config.workerId, ms: Date.now() - started });
      said(ChunkOutcome.done);
      return true;
    }
    // Deleted, failed or taken over meanwhile: this attempt's file goes (a later attempt's has its own key).
    await storage.deletePrefix(fileKey);
    return false;
  } catch (error) {
    const outcome = await chunkFailed(context, render, row, error, job);
    if (outcome) said(outcome, String((error as { code?: unknown } | null)?.code ?? '') || undefined);
    return false;
  } finally {
    if (projectDir !== undefined) storage.releaseDirectory?.(render.projectKey);
    await removeWorkDir(workDir);
  }
}

/** A retry as a new job while the chunk has attempts left, else the render's failure; says what became of it. */
async function chunkFailed(
  context: ServiceContext,
  render: RenderRow,
  row: ChunkRow,
  error: unknown,
  { signal, leased }: Job,
): Promise<ChunkOutcome | undefined> {
  const { chunks, config } = context;
  const aborted = signal.aborted ? (signal.reason as AbortReason) : undefined;
  const next = afterChunkError(aborted, {
    leased: leased ?? false,
    attempts: row.attempts,
    maxAttempts: config.maxAttempts,
  });
  if (aborted !== undefined) {
    // Shut down: the attempt is given back with the job (pg-boss), or with the render, which the in-process queue
    // plans afresh at the next start. Deleted, failed or lost: nothing of this worker's to keep.
    if (next.chunk === ChunkTransition.handBack) {
      await chunks.release(render.id, row.index, row.attempts, ChunkStatus.queued, true);
      if (next.render === RenderTransition.requeue) await context.renders.requeue(render.id);
      return ChunkOutcome.handedBack;
    }
    return undefined;
  }
  const code = (error as { code?: unknown } | null)?.code;
  config.log('render chunk failed', {
    renderId: render.id,
    chunk: row.index,
    attempt: row.attempts,
    code,
    error: String(error),
  });
  if (next.chunk === ChunkTransition.retry) {
    if (!(await chunks.release(render.id, row.index, row.attempts, ChunkStatus.queued))) return undefined;
    context.events.emit('jobRetried', {
      renderId: render.id,
      chunk: row.index,
      retry: row.attempts,
      reason: 'chunk_failed',
    });
    await context.queue.enqueue(render.id, {
      index: row.index,
      renderAttempt: row.renderAttempt,
      attempt: row.attempts + 1,
    });
    return ChunkOutcome.retry;
  }
  if (
    next.chunk === ChunkTransition.fail &&
    (await chunks.release(render.id, row.index, row.attempts, ChunkStatus.failed))
  ) {
    await failChunkedRender(context, render, error, row.renderAttempt);
    return ChunkOutcome.failed;
  }
  return undefined;
}
