/**
 * The composition's clocks (`Date.now()`, `performance.now()`) hold still while it loads, up to the runtime's
 * ready, so scripts that time their own load take the same branch in the preview and in the render, whatever the
 * machine's speed. GSAP's ticker counts a frame only once more than 1/240 s passed since it started, and a `from`
 * tween is drawn at once or lazily depending on that: registry blocks that measure their layout right after one
 * (built in `document.fonts.ready`) measured a scaled editor in some loads and not in others — plain Chromium, no
 * fx: 2 of 6 and 5 of 8 — so render and preview differed by a few pixels.
 *
 * A held clock still moves a microsecond per read: a script that waits for time to pass gets there. Once released,
 * both read the browser's clocks again; they never go back. The runtime's own timing reads {@link realNow}.
 */

/** How far a read moves a held clock, in milliseconds. */
const STEP_MS = 0.001;

/** The browser's `performance.now()`, whatever the composition sees. */
export const realNow: () => number = performance.now.bind(performance);

/** Holds `Date.now()` and `performance.now()` for the composition's scripts; returns what releases them. */
export function holdClocks(): () => void {
  const realDateNow = Date.now.bind(Date);
  const heldNow = realNow();
  const heldDate = realDateNow();
  let reads = 0;
  let held = true;
  // Neither clock returns less than it did: a held clock that moved past the real one waits for it.
  let lastNow = -Infinity;
  let lastDate = -Infinity;
  performance.now = () => (lastNow = Math.max(lastNow, held ? heldNow + ++reads * STEP_MS : realNow()));
  Date.now = () => (lastDate = Math.max(lastDate, held ? Math.floor(heldDate + ++reads * STEP_MS) : realDateNow()));
  return () => {
    held = false;
  };
}
