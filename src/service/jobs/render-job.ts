import { extname, join } from 'node:path';
import type { RenderOptions, RenderProgress, RenderResult } from '../../render/types.js';
import { IdPrefix, RenderStatus, WebhookEventType } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { newId } from '../ids.js';
import { creditsFor } from '../renders/billing.js';
import type { RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';
import { planChunkedRender } from './chunk-planning.js';
import { failIfExhausted } from './crash-recovery.js';
import { AbortReason, type Job } from './job-queue.js';
import { renderFailure } from './render-failure.js';
import { makeWorkDir, removeWorkDir } from './work-dir.js';

/** The webhook a render's final state sends, if it asked for one. */
export function webhookFor(render: RenderRow, type: WebhookEventType, eventTime: number) {
  if (render.request.callback_url === null) return undefined;
  return {
    id: newId(IdPrefix.webhookMessage),
    renderId: render.id,
    accountId: render.accountId,
    url: render.request.callback_url,
    eventType: type,
    eventTime,
  };
}

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
    if (current?.status === RenderStatus.rendering && (await failIfExhausted(context, current))) return;
  }
  const render = await renders.claim(renderId, config.now(), leased);
  if (!render) return;
  if (await planChunkedRender(context, render)) return;
  const workDir = await makeWorkDir(config.dataDir, renderId, 'render');
  let projectDir: string | undefined;
  try {
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
    if (signal.aborted) {
      if (signal.reason === AbortReason.shutdown) await renders.requeue(renderId);
      return;
    }
    await failRender(context, render, error, render.attempts);
  } finally {
    if (projectDir !== undefined) storage.releaseDirectory?.(render.projectKey);
    await removeWorkDir(workDir);
  }
}

/** What every renderer call of a render gets (a whole render, or a chunk of it). */
export function renderInputs(
  { config }: ServiceContext,
  render: RenderRow,
  projectDir: string,
): Omit<RenderOptions, 'outputPath'> {
  return {
    ...config.renderOptions,
    projectDir,
    composition: render.request.composition,
    fps: render.request.fps,
    quality: render.request.quality,
    format: render.request.format,
    resolution: render.request.resolution,
    aspectRatio: render.request.aspect_ratio,
    variables: render.request.variables,
    allowCompositionReadsUnder: pageFolders(render.request),
    allowMissingFiles: render.request.allow_missing_files === true,
    maxDurationSeconds: config.limits.maxDurationSeconds,
    maxFrames: config.limits.maxFrames,
    unsafeAllowPrivateNetwork: config.allowPrivateNetworkUrls,
  };
}

/**
 * Stores the video and thumbnail and completes the render on `attempt` with its webhook; true when it did. A
 * render deleted meanwhile has its files removed. (Completed by a worker that held the job before: the same files,
 * kept.)
 */
export async function completeRender(
  context: ServiceContext,
  render: RenderRow,
  result: RenderResult,
  attempt: number,
): Promise<boolean> {
  const { config, renders, storage } = context;
  const videoKey = StorageKey.video(render.id, render.request.format);
  const thumbnailKey = StorageKey.thumbnail(render.id, extname(result.thumbnailPath).slice(1) || 'jpg');
  await storage.putFile(videoKey, result.videoPath);
  await storage.putFile(thumbnailKey, result.thumbnailPath);
  const finishedAt = config.now();
  const completed = await renders.complete(
    render.id,
    {
      warnings: [...render.warnings, ...(result.issues ?? [])],
      videoKey,
      thumbnailKey,
      output: {
        width: result.width,
        height: result.height,
        frames: result.frames,
        duration: result.frames / result.fps,
      },
      credits: creditsFor(result.frames, render.request.resolution),
      finishedAt,
      attempt,
    },
    webhookFor(render, WebhookEventType.completed, finishedAt),
  );
  if (completed) context.wakeWebhooks();
  else if (!(await renders.find(render.id))) await storage.deletePrefix(StorageKey.render(render.id));
  return completed;
}

/** Fails the render on `attempt` with the error's public code and its webhook; true when it did. */
export async function failRender(
  context: ServiceContext,
  render: RenderRow,
  error: unknown,
  attempt: number,
): Promise<boolean> {
  const { failure, detail } = renderFailure(error);
  context.config.log('render failed', { renderId: render.id, code: failure.code, error: detail });
  const now = context.config.now();
  const failed = await context.renders.fail(
    render.id,
    failure,
    now,
    webhookFor(render, WebhookEventType.failed, now),
    attempt,
  );
  if (failed) context.wakeWebhooks();
  return failed;
}

/** Persists progress at most every `progressIntervalMs`, and always when the stage changes. */
export function throttledProgress(
  context: ServiceContext,
  renderId: string,
  write: (progress: RenderProgress) => Promise<void>,
) {
  let lastWrite = 0;
  let lastStage: string | undefined;
  return (progress: RenderProgress) => {
    const now = Date.now();
    if (progress.stage === lastStage && now - lastWrite < context.config.progressIntervalMs) return;
    lastWrite = now;
    lastStage = progress.stage;
    write(progress).catch((error) => context.config.log('progress not saved', { renderId, error: String(error) }));
  };
}

/**
 * A `url` render's page may have the compiler read its own folder on the origin (where its `<base href>` points),
 * as it would in `<fx-composition src>`; records from before `page_url` existed fall back to the submitted URL.
 */
function pageFolders(request: RenderRow['request']): string[] {
  const page = request.page_url ?? request.url;
  return page ? [new URL('./', page).href] : [];
}
