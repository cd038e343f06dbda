/**
 * When what the frame painted is on screen. The main thread paints a frame's display lists; raster and activation
 * follow on the compositor's threads, and until they finish the host page still composites the previous picture.
 * On real 1920×1080 blocks (hundreds of text layers shown for the first time by a seek) that took 150–400 ms while
 * the main-thread paint took 3–15 ms, so neither the paint's cost nor a fixed number of extra frames tells when it
 * is over. What does: Chromium may begin the main frame after a paint before that paint's raster is done, but not
 * the one after that — it waits until the paint was activated. So the second frame after a lagging paint comes late,
 * and two frames on time say the compositor caught up (one was not enough in 2 of 10 first seeks of code-scroll).
 */

import { FramePace } from './frame-pace.js';

/**
 * A frame this late after the last was held back by raster: two display frames at 60 Hz, one at 30 — or, on a page
 * whose frames come slower, {@link LATE_FACTOR} of its usual interval (frame-pace.ts): a fixed bound would call every
 * frame of a slow page late and make each seek wait out {@link MAX_SETTLE_MS}.
 */
const LATE_FRAME_MS = 40;
const LATE_FACTOR = 1.5;
/** Frames in a row that must come on time after a paint (see above). */
const ON_TIME_FRAMES = 2;
/** A composition whose own work makes frames late at random still answers: after this long, or this many frames. */
const MAX_SETTLE_MS = 1000;
const MAX_SETTLE_FRAMES = 6;
/** A seek this soon after the last answer is part of a scrub. */
export const SCRUB_GAP_MS = 100;
/** A main-thread paint longer than this rasterises long too: a frame on time follows it even when raster kept up. */
const SLOW_PAINT_MS = 8;

/**
 * Settles seeks on what is composited. A seek that comes on its own (nothing answered in the last
 * {@link SCRUB_GAP_MS}: `await seek(t)` before a screenshot), the first, and every seek while raster lags wait for two
 * frames on time after their paint. Within a scrub, once raster kept up, a seek answers right after its paint (after
 * one frame on time for a slow paint, which also tells whether raster still keeps up): a frame more on every seek
 * cost scrub 8 → 21 ms median, and so did watching the frames after each answer (requested frames delay the port's
 * next message).
 */
export class PaintSettler {
  #keepsUp = false;
  #answeredAt = -Infinity;
  readonly #pace = new FramePace();

  /**
   * Whether a seek arriving now is part of a scrub (an answer went out in the last {@link SCRUB_GAP_MS}). Asked on
   * arrival: a seek that overlapped an unanswered one is on its own, whatever is answered while it runs.
   */
  partOfScrub(): boolean {
    return performance.now() - this.#answeredAt < SCRUB_GAP_MS;
  }

  /** Resolves after the next paint and, unless part of a scrub that raster keeps up with, once it is on screen. */
  async afterSettledPaint(scrubbing = this.partOfScrub()): Promise<void> {
    const paintMs = await afterNextPaint();
    if (!this.#keepsUp || !scrubbing) this.#keepsUp = await untilFramesOnTime(ON_TIME_FRAMES, this.#pace);
    else if (paintMs > SLOW_PAINT_MS) this.#keepsUp = await untilFramesOnTime(1, this.#pace);
    this.#answeredAt = performance.now();
  }

  /** The stage was built anew (a rerun): its first paints rasterise afresh. */
  expectLag(): void {
    this.#keepsUp = false;
  }
}

/**
 * Waits for `count` animation frames in a row on time (by the page's own `pace`, which it updates); true when none
 * came late (nothing lagged). A hidden document gets no frames and composites nothing: true at once; false when the
 * frames never caught up.
 */
async function untilFramesOnTime(count: number, pace: FramePace): Promise<boolean> {
  if (document.visibilityState === 'hidden') return true;
  const started = performance.now();
  // The first frame's interval is counted from the paint, not from a frame: it says nothing of the pace.
  let [last, fromFrame, onTime, late] = [started, false, 0, false];
  while (onTime < count) {
    // Before this frame's interval is added: a first lagging frame must not set the pace it is judged by.
    const usual = pace.usualMs ?? 0;
    const giveUpAt = started + Math.max(MAX_SETTLE_MS, MAX_SETTLE_FRAMES * usual);
    const at = await nextFrame(giveUpAt - performance.now());
    if (at === undefined) return false;
    if (fromFrame) pace.add(at - last);
    if (at - last <= Math.max(LATE_FRAME_MS, LATE_FACTOR * usual)) onTime++;
    else [onTime, late] = [0, true];
    [last, fromFrame] = [at, true];
  }
  return !late;
}

/** The time of the next animation frame's callbacks, or undefined when none comes within `withinMs`. */
function nextFrame(withinMs = Infinity): Promise<number | undefined> {
  return new Promise((resolve) => {
    const timer = withinMs < Infinity ? setTimeout(resolve, Math.max(0, withinMs)) : undefined;
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve(performance.now());
    });
  });
}

/** Called while a frame's animation callbacks run: resolves in the first task after its paint. */
export function afterThisFrame(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves right after the next frame was painted — a rAF runs before the main thread paints the new state, the task
 * it queues runs after — with the milliseconds between the two (style, layout and paint of that frame). A hidden
 * document paints nothing (and gets no rAF), so it resolves at once, with 0.
 */
export function afterNextPaint(): Promise<number> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve(0);
    requestAnimationFrame(() => {
      const started = performance.now();
      afterThisFrame().then(() => resolve(performance.now() - started));
    });
  });
}
