import type { ServiceContext } from '../context.js';
import { afterInterruption, Interruption, RenderTransition } from '../renders/render-state.js';
import { failInterrupted } from './finish-render.js';

/**
 * Crash recovery of the in-process queue, run once before it takes jobs: no render stays `rendering` without a job
 * behind it. A render a crash interrupted is queued again, or failed once it used its attempts
 * (`afterInterruption`). The pg-boss queue needs none of it: a dead worker's job comes back after its lease and its
 * next holder takes the render over.
 */
export async function recoverInterrupted(context: ServiceContext): Promise<void> {
  for (const render of await context.renders.interrupted())
    if (afterInterruption(render.attempts, context.config.maxAttempts, Interruption.restart) === RenderTransition.fail)
      await failInterrupted(context, render);
    else await context.renders.resume(render.id);
}
