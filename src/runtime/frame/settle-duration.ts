import type { Issue } from '../issues.js';
import { timelineMissingIssue } from '../root-metadata.js';
import { TIMELINE_SETTLE_MS, timelineLength } from '../timeline-duration.js';

/** Polling, not animation frames: a hidden frame gets none (issue 13 §2), and timers still run there. */
const POLL_MS = 20;

/**
 * The duration of a composition whose root has no `data-duration`: the length of the timeline registered as
 * `window.__timelines[id]`. Called once the page loaded; while none is registered, or it is still empty (a
 * placeholder a later script fills), waits up to {@link TIMELINE_SETTLE_MS}. `seconds` is 0 with an `issue` when
 * there is no usable timeline by then.
 */
export async function settleTimelineDuration(id: string): Promise<{ seconds: number; issue?: Issue }> {
  const deadline = performance.now() + TIMELINE_SETTLE_MS;
  for (;;) {
    const measured = timelineLength(window.__timelines?.[id], id);
    const waiting = measured === undefined || measured.seconds === 0;
    if (!waiting || performance.now() >= deadline) {
      if (!measured) return { seconds: 0, issue: timelineMissingIssue(id, TIMELINE_SETTLE_MS) };
      return measured.issue ? { seconds: 0, issue: measured.issue } : measured;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
