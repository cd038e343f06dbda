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
/**
 * Frames in a row that must come on time after a paint (see above) in Chromium and Firefox. WebKit needs one: read
 * from the X screen under Xvfb (bench/player/on-screen.mjs), its picture was there 10–40 ms before
 * an answer one frame on time after the paint (1–16 ms with one core busy beside it) on light and on heavy (600
 * shadowed text lines) compositions; a second frame cost every seek 33 ms (its cross-origin frames run at 30 fps).
 * With both cores busy neither count holds: the heavy picture reached the screen up to 160 ms after one frame and
 * up to 1.1 s after two.
 */
export const ON_TIME_FRAMES = isWebKit() ? 1 : 2;
/** A composition whose own work makes frames late at random still answers: after this long, or this many frames. */
const MAX_SETTLE_MS = 1000;
const MAX_SETTLE_FRAMES = 6;
/** A seek this soon after the last answer is part of a scrub. */
export const SCRUB_GAP_MS = 100;
/** A main-thread paint longer than this rasterises long too: a frame on time follows it even when raster kept up. */
const SLOW_PAINT_MS = 8;

/**
 * Settles seeks on what is composited. A seek that comes on its own (nothing answered in the last
 * {@link SCRUB_GAP_MS}: `await seek(t)` before a screenshot), the first, and every seek while raster lags wait for
 * {@link ON_TIME_FRAMES} frames on time after their paint. Within a scrub, once raster kept up, a seek answers right
 * after its paint (after one frame on time for a slow paint, which also tells whether raster still keeps up): a frame
 * more on every seek cost scrub 8 → 21 ms median, and so did watching the frames after each answer (requested frames
 * delay the port's next message).
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
    // A scrub's seek that raster keeps up with answers after its paint: watching the frames after it would cost
    // every such seek (scrub 7 → 10 ms median), and a slow paint there waits one frame more where WebKit began one.
    const paint = await nextPaint(!(this.#keepsUp && scrubbing));
    if (!this.#keepsUp || !scrubbing) this.#keepsUp = await untilFramesOnTime(ON_TIME_FRAMES, this.#pace, paint);
    else if (paint.ms > SLOW_PAINT_MS) this.#keepsUp = await untilFramesOnTime(1, this.#pace, paint);
    this.#answeredAt = performance.now();
  }

  /** The stage was built anew (a rerun): its first paints rasterise afresh. */
  expectLag(): void {
    this.#keepsUp = false;
  }
}

/**
 * Waits for `wanted` animation frames in a row on time after `paint` (by the page's own `pace`, which it updates);
 * true when none came late (nothing lagged). Frames that began before the paint's task ran count first. A hidden
 * document gets no frames and composites nothing: true at once; false when the frames never caught up.
 */
async function untilFramesOnTime(wanted: number, pace: FramePace, paint: Paint): Promise<boolean> {
  if (document.visibilityState === 'hidden') return true;
  const started = performance.now();
  const lateAfterMs = () => Math.max(LATE_FRAME_MS, LATE_FACTOR * (pace.usualMs ?? 0));
  let [onTime, late] = [0, false];
  /** Counts a frame that came `ms` after the last; judged before it is added, so a lag does not set its own pace. */
  const count = (ms: number, isInterval: boolean) => {
    if (ms <= lateAfterMs()) onTime++;
    else [onTime, late] = [0, true];
    if (isInterval) pace.add(ms);
  };
  // Frames that began before the task are judged from the paint's frame, one after the other; then the wait for
  // the task, which the last of them held back if it ran over (a late frame, not one more on time).
  let last = paint.at;
  for (const at of paint.framesBefore) {
    count(at - last, true);
    last = at;
  }
  if (paint.framesBefore.length > 0 && started - last > lateAfterMs()) [onTime, late] = [0, true];
  // A paint whose task came as late as a late frame would: raster lags behind a paint that long (Chromium), or a
  // frame unwatched began and ran over before the task (WebKit).
  if (paint.framesBefore.length === 0 && paint.ms > lateAfterMs()) [onTime, late] = [0, true];
  // The first frame after the task is counted from the task, not from a frame: it says nothing of the pace.
  last = started;
  for (let fromFrame = false; onTime < wanted; fromFrame = true) {
    const giveUpAt = started + Math.max(MAX_SETTLE_MS, MAX_SETTLE_FRAMES * (pace.usualMs ?? 0));
    const at = await nextFrame(giveUpAt - performance.now());
    if (at === undefined) return false;
    count(at - last, fromFrame);
    last = at;
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

/** A frame painted: when its animation callbacks ran, how long until the task after its paint, what came between. */
interface Paint {
  readonly at: number;
  readonly ms: number;
  /**
   * The times of animation frames that began before the task after the paint ran. WebKit begins the next frame at
   * once after a frame over its budget, ahead of queued tasks: those frames are the ones after the paint.
   */
  readonly framesBefore: readonly number[];
}

/**
 * The next frame's paint — a rAF runs before the main thread paints the new state, the task it queues runs after —
 * known once that task runs; with `watchFrames`, the frames that began before it too. A hidden document paints
 * nothing (and gets no rAF): at once, with 0 ms.
 */
function nextPaint(watchFrames = true): Promise<Paint> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve({ at: performance.now(), ms: 0, framesBefore: [] });
    requestAnimationFrame(() => {
      const at = performance.now();
      const framesBefore: number[] = [];
      const watch = () => {
        framesBefore.push(performance.now());
        frame = requestAnimationFrame(watch);
      };
      let frame = watchFrames ? requestAnimationFrame(watch) : 0;
      afterThisFrame().then(() => {
        // Cancelled, not left to run: a frame requested after the answer delays the port's next message.
        if (watchFrames) cancelAnimationFrame(frame);
        resolve({ at, ms: performance.now() - at, framesBefore });
      });
    });
  });
}

/** Resolves right after the next frame was painted (see {@link nextPaint}), with the milliseconds it took. */
export async function afterNextPaint(): Promise<number> {
  return (await nextPaint(false)).ms;
}

/**
 * WebKit (Safari, every iOS browser, WebKitGTK), not Chromium, which names AppleWebKit too, and "Chrome/" (Edge and
 * headless Chromium's "HeadlessChrome/" as well).
 */
function isWebKit(): boolean {
  const agent = globalThis.navigator?.userAgent ?? '';
  return agent.includes('AppleWebKit/') && !agent.includes('Chrome/');
}
