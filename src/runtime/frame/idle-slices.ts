/** Without `requestIdleCallback` (Safari): a slice this long per task. */
const FALLBACK_SLICE_MS = 4;

/**
 * Runs `slice` in the browser's idle periods, one per period, until it returns true. `more()` says whether the
 * period has time left, so a slice stops before it delays a frame or an event.
 */
export function inIdleSlices(slice: (more: () => boolean) => boolean): void {
  const next = () => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback((deadline) => {
        if (!slice(() => deadline.timeRemaining() > 1)) next();
      });
    else
      setTimeout(() => {
        const end = performance.now() + FALLBACK_SLICE_MS;
        if (!slice(() => performance.now() < end)) next();
      });
  };
  next();
}
