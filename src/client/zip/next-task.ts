/**
 * Resolves in a new task, so work done chunk by chunk on data already in memory lets the page run between chunks.
 * `scheduler.yield()` where there is one — but Firefox runs its continuations ahead of timers, so every
 * {@link TIMER_EVERY_MS} a timeout is taken instead, for the page's own timers. (A `MessageChannel` is no good:
 * Chromium delivers a burst of port messages in one task.)
 */
const TIMER_EVERY_MS = 16;
let lastTimer = 0;

export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  const now = performance.now();
  if (scheduler?.yield && now - lastTimer < TIMER_EVERY_MS) return scheduler.yield();
  lastTimer = now;
  return new Promise((resolve) => setTimeout(resolve, 0));
}
