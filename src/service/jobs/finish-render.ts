import { extname } from 'node:path';
import type { RenderResult } from '../../render/types.js';
import { FailureCode, IdPrefix, WebhookEventType } from '../../wire/constants.js';
import { isStillFormat } from '../../wire/render-request.js';
import type { ServiceContext } from '../context.js';
import { newId } from '../ids.js';
import { creditsFor } from '../renders/billing.js';
import type { RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';
import { renderFailure } from './render-failure.js';

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
 * Stores the output (a video, a GIF or a still) and its thumbnail and completes the render on `attempt` with its
 * webhook; true when it did. A render deleted meanwhile has its files removed. (Completed by a worker that held the
 * job before: the same files, kept.)
 */
export async function completeRender(
  context: ServiceContext,
  render: RenderRow,
  result: RenderResult,
  attempt: number,
): Promise<boolean> {
  const { config, renders, storage } = context;
  const { format } = render.request;
  const still = isStillFormat(format);
  const videoKey = StorageKey.video(render.id, format);
  // A still is its own thumbnail (the renderer gives the same path): stored once, both links name it.
  const thumbnailKey = still
    ? videoKey
    : StorageKey.thumbnail(render.id, extname(result.thumbnailPath).slice(1) || 'jpg');
  await storage.putFile(videoKey, result.videoPath);
  if (!still) await storage.putFile(thumbnailKey, result.thumbnailPath);
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
        duration: still ? 0 : result.frames / result.fps,
        start: result.start,
      },
      // A still costs what one frame of a video does.
      credits: creditsFor(still ? 1 : result.frames, render.request.resolution),
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

/**
 * Fails a render that was interrupted as many times as it may be started (`afterInterruption`) with
 * `render_interrupted`, its webhook in the same transaction.
 */
export async function failInterrupted(context: ServiceContext, render: RenderRow): Promise<void> {
  const now = context.config.now();
  const failure = {
    code: FailureCode.interrupted,
    message: `the render was interrupted ${render.attempts} time(s) and is not retried again`,
  };
  if (await context.renders.fail(render.id, failure, now, webhookFor(render, WebhookEventType.failed, now)))
    context.wakeWebhooks();
}
