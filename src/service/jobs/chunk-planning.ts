import '../../runtime/dom-parser.node.js';
import { planChunks } from '../../render/chunks/plan.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import type { ServiceContext } from '../context.js';
import type { RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';

/** The composition's frames as the renderer counts them, or undefined when its duration is unknown here. */
async function framesOf({ storage }: ServiceContext, render: RenderRow): Promise<number | undefined> {
  const bytes = await storage.read(`${render.projectKey}/${render.request.composition}`).catch(() => undefined);
  if (!bytes) return undefined;
  const { duration } = extractCompositionMetadata(new TextDecoder().decode(bytes));
  return duration === undefined ? undefined : Math.max(1, Math.round(duration * render.request.fps));
}

/**
 * Splits a just-claimed render into chunk jobs when `config.chunks` asks for more than one chunk of its frames:
 * records the chunks (`queued`, planned on this attempt, replacing an earlier attempt's and their files), sets the
 * render's progress to its frame count and enqueues one job per chunk. False (nothing done) for a render that stays
 * one job: chunking off, too few frames, or a duration the renderer must judge (it refuses a missing one).
 */
export async function planChunkedRender(context: ServiceContext, render: RenderRow): Promise<boolean> {
  const { workers, minChunkFrames, chunksPerWorker } = context.config.chunks;
  if (workers < 2) return false;
  const frames = await framesOf(context, render);
  if (frames === undefined || frames > context.config.limits.maxFrames) return false;
  const plan = planChunks(frames, workers, { minChunkFrames, chunksPerWorker });
  if (plan.length < 2) return false;
  await context.storage.deletePrefix(StorageKey.chunks(render.id));
  await context.chunks.plan(render.id, render.attempts, plan);
  await context.renders.recordProgress(render.id, { stage: 'capturing', framesDone: 0, framesTotal: frames });
  for (const { index } of plan)
    await context.queue.enqueue(render.id, { index, renderAttempt: render.attempts, attempt: 1 });
  return true;
}
