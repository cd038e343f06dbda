/**
 * The composition's `Date.now()` holds still while it loads, up to the runtime's ready, so scripts that time their
 * own load take the same branch in the preview and in the render, whatever the machine's speed. GSAP's ticker (which
 * reads `Date.now`) counts a frame only once more than 1/240 s passed since it started, and a `from` tween is drawn
 * at once or lazily depending on that: registry blocks that measure their layout right after one (built in
 * `document.fonts.ready`) measured a scaled editor in some loads and not in others — plain Chromium, no fx: 2 of 6
 * and 5 of 8 — so render and preview differed by a few pixels (27–29 dB; 39–43 dB held).
 *
 * A held clock still moves a microsecond per read: a script that waits for time to pass gets there. Once released
 * it reads the browser's clock again, never going back. `performance.now()` is left alone: no registry block needs
 * it held. (Holding it too was reverted when blocks loaded right after a heavy WebGL block missed ready; that
 * happens without the hold as well — the WebGL block's leftover GPU work, see bench/README.md.)
 */

/** How far a read moves the held clock, in milliseconds. */
const STEP_MS = 0.001;

/** The browser's clock, once `Date.now` is replaced; how many holds are on, where the clock stands, reads since. */
let realDateNow: (() => number) | undefined;
let holds = 0;
let heldAt = 0;
let reads = 0;
// Never less than it returned before: a held clock that moved past the real one waits for it.
let last = -Infinity;

/**
 * Holds `Date.now()` for the composition's scripts (while it loads, and while a rerun runs them again); returns what
 * releases this hold. Holds nest; the clock runs again once all are released.
 */
export function holdDateNow(): () => void {
  if (!realDateNow) {
    const real = (realDateNow = Date.now.bind(Date));
    Date.now = () => (last = Math.max(last, holds > 0 ? Math.floor(heldAt + ++reads * STEP_MS) : real()));
  }
  if (holds++ === 0) [heldAt, reads] = [Math.max(realDateNow(), last), 0];
  let released = false;
  return () => {
    if (!released) holds--;
    released = true;
  };
}
