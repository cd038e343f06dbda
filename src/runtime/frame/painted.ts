/**
 * When what the frame painted is on screen. The main thread paints a frame's display lists; raster and activation
 * follow on the compositor's threads, and until they finish the host page still composites the previous picture.
 * On real 1920×1080 blocks (hundreds of text layers shown for the first time by a seek) that took 150–400 ms while
 * the main-thread paint took 3–15 ms, so neither the paint's cost nor a fixed number of extra frames tells when it
 * is over. What does: Chromium may begin the main frame after a paint before that paint's raster is done, but not
 * the one after that — it waits until the paint was activated. So the second frame after a lagging paint comes late,
 * and two frames on time say the compositor caught up (one was not enough in 2 of 10 first seeks of code-scroll).
 */

/** A frame this late after the last (two display frames at 60 Hz, one at 30) was held back by raster. */
const LATE_FRAME_MS = 40;
/** Frames in a row that must come on time after a paint (see above). */
const ON_TIME_FRAMES = 2;
/** A composition whose own work makes every frame late still answers. */
const MAX_SETTLE_MS = 1000;
/** A main-thread paint longer than this rasterises long too: a frame on time follows it even when raster kept up. */
const SLOW_PAINT_MS = 8;

/**
 * Settles seeks on what is composited. While raster has kept up with the paints before (checked for free on the
 * frames after each answer), a seek answers right after its paint (after one frame on time for a slow paint);
 * otherwise — at first, after a late frame, after the stage was built again — it waits for two frames on time.
 * Scrubbing keeps its one-frame answer (a frame more on every seek cost scrub 8 → 21 ms median); a heavy
 * composition pays its raster.
 */
export class PaintSettler {
  #keepsUp = false;

  /** Resolves after the next paint and, unless raster is known to keep up, once that paint is on screen. */
  async afterSettledPaint(): Promise<void> {
    const paintMs = await afterNextPaint();
    if (!this.#keepsUp) {
      this.#keepsUp = await untilFramesOnTime(ON_TIME_FRAMES);
      return;
    }
    // Raster has kept up: a light paint answers now, a heavy one after a frame on time; the frames after are watched.
    const waited = paintMs > SLOW_PAINT_MS ? 1 : 0;
    if (waited > 0 && !(await untilFramesOnTime(waited))) this.#keepsUp = false;
    void this.#watchFrames(ON_TIME_FRAMES - waited);
  }

  /** The stage was built anew (a rerun): its first paints rasterise afresh. */
  expectLag(): void {
    this.#keepsUp = false;
  }

  /** The frames after an answer: if one came late, that answer was early, and the next seek settles. */
  async #watchFrames(count: number): Promise<void> {
    let last = performance.now();
    for (let frames = 0; frames < count; frames++) {
      const at = (await nextFrame())!;
      if (at - last > LATE_FRAME_MS) this.#keepsUp = false;
      last = at;
    }
  }
}

/**
 * Waits for `count` animation frames in a row on time; true when none came late (nothing lagged). A hidden document
 * gets no frames and composites nothing: true at once; false when the frames never caught up.
 */
async function untilFramesOnTime(count: number): Promise<boolean> {
  if (document.visibilityState === 'hidden') return true;
  const started = performance.now();
  let [last, onTime, late] = [started, 0, false];
  while (onTime < count) {
    const at = await nextFrame(started + MAX_SETTLE_MS - performance.now());
    if (at === undefined) return false;
    if (at - last <= LATE_FRAME_MS) onTime++;
    else [onTime, late] = [0, true];
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
