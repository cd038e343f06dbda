import { join } from 'node:path';
import { RenderStatus } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { afterInterruption, afterRenderError, Interruption, RenderTransition } from '../renders/render-state.js';
import { planChunkedRender } from './chunk-planning.js';
import { completeRender, failInterrupted, failRender } from './finish-render.js';
import type { Job } from './job-queue.js';
import { renderInputs } from './renderer-inputs.js';
import { throttledProgress } from './throttled-progress.js';
import { makeWorkDir, removeWorkDir } from './work-dir.js';

/**
 * Runs one render: claims it (`queued → rendering`), calls the renderer with throttled progress and the job's
 * abort signal, stores the outputs and completes or fails it, with its webhook in the same transaction. The
 * renderer gets the service's length limits (checked at submit already) and network rule. Clients get a failure
 * code and a fixed message; the renderer's own message goes to the log. A render long enough to split
 * (`config.chunks`) is planned into chunk jobs instead (chunk-planning.ts), which any worker runs (chunk-job.ts).
 */
export async function runRenderJob(context: ServiceContext, { renderId, signal, leased }: Job): Promise<void> {
  const { config, renders, storage } = context;
  if (leased) {
    // A leased job that finds its render `rendering` took it over from a dead worker: that was one attempt.
    const current = await renders.find(renderId);
    if (
      current?.status === RenderStatus.rendering &&
      afterInterruption(current.attempts, config.maxAttempts, Interruption.lease) === RenderTransition.fail
    )
      return failInterrupted(context, current);
  }
  const render = await renders.claim(renderId, config.now(), leased);
  if (!render) return;
  if (await planChunkedRender(context, render)) return;
  let workDir: string | undefined;
  let projectDir: string | undefined;
  try {
    workDir = await makeWorkDir(config.dataDir, renderId, 'render');
    // Deleted or shut down while the job was being prepared: a renderer may not check an already-aborted signal.
    signal.throwIfAborted();
    projectDir = await storage.localDirectory(render.projectKey);
    const result = await config.render({
      ...renderInputs(context, render, projectDir),
      outputPath: join(workDir, `video.${render.request.format}`),
      signal,
      onProgress: throttledProgress(context, renderId, (progress) => {
        // The renderer counts 0 frames until it compiled the composition; the record says "not known" then (null).
        const framesTotal = progress.framesTotal > 0 ? progress.framesTotal : null;
        return renders.recordProgress(renderId, {
          stage: progress.stage,
          framesDone: progress.framesDone,
          framesTotal,
        });
      }),
    });
    if (signal.aborted) throw signal.reason;
    await completeRender(context, render, result, render.attempts);
  } catch (error) {
    const next = afterRenderError(signal.aborted ? signal.reason : undefined);
    if (next === RenderTransition.requeue) await renders.requeue(renderId);
    else if (next === RenderTransition.fail) await failRender(context, render, error, render.attempts);
  } finally {
    if (projectDir !== undefined) storage.releaseDirectory?.(render.projectKey);
    await removeWorkDir(workDir);
  }
}
