import { FailureCode, WebhookEventType } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import type { RenderRow } from '../renders/render-types.js';
import { webhookFor } from './render-job.js';

/**
 * Fails an interrupted render with `render_interrupted` (its webhook in the same transaction) once it was started
 * `maxAttempts` times, so a composition that kills its worker cannot loop; true when it did.
 */
export async function failIfExhausted(context: ServiceContext, render: RenderRow): Promise<boolean> {
  if (render.attempts < context.config.maxAttempts) return false;
  const now = context.config.now();
  const failure = {
    code: FailureCode.interrupted,
    message: `the render was interrupted ${render.attempts} time(s) and is not retried again`,
  };
  if (await context.renders.fail(render.id, failure, now, webhookFor(render, WebhookEventType.failed, now)))
    context.wakeWebhooks();
  return true;
}

/**
 * Crash recovery of the in-process queue, run once before it takes jobs: no render stays `rendering` without a job
 * behind it. A render a crash interrupted is queued again, or failed (`failIfExhausted`). The pg-boss queue needs
 * none of it: a dead worker's job comes back after its lease and its next holder takes the render over.
 */
export async function recoverInterrupted(context: ServiceContext): Promise<void> {
  for (const render of await context.renders.interrupted())
    if (!(await failIfExhausted(context, render))) await context.renders.resume(render.id);
}
