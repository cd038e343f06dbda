import { FailureCode, WebhookEventType } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { webhookFor } from './render-job.js';

/**
 * Crash recovery, run once before the queue takes jobs: no render stays `rendering` without a job behind it. A
 * render a crash interrupted is queued again, or failed with `render_interrupted` (its webhook in the same
 * transaction) once it was started `maxAttempts` times, so a composition that kills the service cannot loop.
 */
export async function recoverInterrupted(context: ServiceContext): Promise<void> {
  const { renders, config } = context;
  for (const render of await renders.interrupted()) {
    if (render.attempts < config.maxAttempts) {
      await renders.resume(render.id);
      continue;
    }
    const now = config.now();
    const failure = {
      code: FailureCode.interrupted,
      message: `the render was interrupted ${render.attempts} time(s) and is not retried again`,
    };
    await renders.fail(render.id, failure, now, webhookFor(render, WebhookEventType.failed, now));
  }
}
