/**
 * The pure arithmetic of the frame's clock, apart from the DOM so it is unit-tested in Node
 * (test/runtime/frame/playback-step.node.test.ts): where a playback tick lands (where a seek lands:
 * ../seek-target.ts).
 */

/** A point where wall-clock time (`performance.now()`, ms) and composition time (s) were known to match. */
export interface Anchor {
  readonly wall: number;
  readonly time: number;
}

export interface PlaybackStep {
  /** The composition time to show at this tick. */
  readonly time: number;
  /** The anchor for the next tick (a new one after a loop wrapped). */
  readonly anchor: Anchor;
  /** True once playback reached the end without `loop`: `time` is the duration, and playback stops. */
  readonly ended: boolean;
}

/**
 * Where playback is at wall-clock `now`, having started from `anchor` and played at `rate` since (a rate change
 * re-anchors): wrapped with `loop`, else ended at the end.
 */
export function playbackStep(anchor: Anchor, now: number, duration: number, loop: boolean, rate: number): PlaybackStep {
  const time = anchor.time + ((now - anchor.wall) / 1000) * rate;
  if (time < duration) return { time, anchor, ended: false };
  if (loop && duration > 0) {
    const wrapped = time % duration;
    return { time: wrapped, anchor: { wall: now, time: wrapped }, ended: false };
  }
  return { time: duration, anchor, ended: true };
}
