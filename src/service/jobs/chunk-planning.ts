import '../../runtime/dom-parser.node.js';
import { planChunks, type FrameRange } from '../../render/chunks/plan.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import { RenderStage } from '../../wire/constants.js';
import { frameIndex } from '../../wire/frames.js';
import { isStillFormat } from '../../wire/render-request.js';
import type { ServiceContext } from '../context.js';
import type { RenderRequest, RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';

/** The composition's frames as the renderer counts them, or undefined when its duration is unknown here. */
async function framesOf({ storage }: ServiceContext, render: RenderRow): Promise<number | undefined> {
  const bytes = await storage.read(`${render.projectKey}/${render.request.composition}`).catch(() => undefined);
  if (!bytes) return undefined;
  const { duration } = extractCompositionMetadata(new TextDecoder().decode(bytes));
  return duration === undefined ? undefined : Math.max(1, Math.round(duration * render.request.fps));
}

/**
 * The frames of the composition a render outputs, when it may be chunked: all of them, or its `range`'s. Undefined
 * for a still (one frame) and a GIF: a GIF's palette is made over all its frames, and chunks joined by stream copy
 * would each bring their own palette and loop header (a re-encode to mend that costs what the chunks saved).
 */
export function chunkableFrames(request: RenderRequest, frames: number): FrameRange | undefined {
  if (request.format === 'gif' || isStillFormat(request.format)) return undefined;
  if (request.range === null) return { from: 0, to: frames };
  const from = frameIndex(request.range.start, request.fps);
  const to = Math.min(frames, frameIndex(request.range.end, request.fps));
  return from < to ? { from, to } : undefined;
}

/**
 * Splits a just-claimed render into chunk jobs when `config.chunks` asks for more than one chunk of its frames:
 * records the chunks (`queued`, planned on this attempt, replacing an earlier attempt's and their files), sets the
 * render's progress to its frame count and enqueues one job per chunk. False (nothing done) for a render that stays
 * one job: chunking off, too few frames, a still or a GIF, or a duration the renderer must judge (it refuses a
 * missing one).
 */
export async function planChunkedRender(context: ServiceContext, render: RenderRow): Promise<boolean> {
  const { workers, minChunkFrames, chunksPerWorker } = context.config.chunks;
  if (workers < 2) return false;
  const frames = await framesOf(context, render);
  if (frames === undefined || frames > context.config.limits.maxFrames) return false;
  const span = chunkableFrames(render.request, frames);
  if (span === undefined) return false;
  // Chunks are frames of the composition: a range's are planned within it.
  const plan = planChunks(span.to - span.from, workers, { minChunkFrames, chunksPerWorker }).map((chunk) => ({
    index: chunk.index,
    from: span.from + chunk.from,
    to: span.from + chunk.to,
  }));
  if (plan.length < 2) return false;
  await context.storage.deletePrefix(StorageKey.chunks(render.id));
  await context.chunks.plan(render.id, render.attempts, plan);
  await context.renders.recordProgress(render.id, {
    stage: RenderStage.capturing,
    framesDone: 0,
    framesTotal: span.to - span.from,
  });
  for (const { index } of plan)
    await context.queue.enqueue(render.id, { index, renderAttempt: render.attempts, attempt: 1 });
  return true;
}
