/**
 * How often this page gets animation frames: 60 Hz on a desktop, 30 on a phone in low-power mode, every 100–900 ms
 * in a slow or throttled browser. "Late" is measured against it, not against a fixed frame rate. The median of the
 * last few intervals, so the odd frame held back by raster (which the settler looks for) does not move it.
 */

/** Intervals remembered: enough that a few late frames are outliers, few enough to follow a rate change. */
const WINDOW = 9;

export class FramePace {
  #intervals: number[] = [];

  /** Milliseconds between two consecutive animation frames. */
  add(intervalMs: number): void {
    this.#intervals.push(intervalMs);
    if (this.#intervals.length > WINDOW) this.#intervals.shift();
  }

  /** The usual interval between frames; `undefined` before two frames in a row were seen. */
  get usualMs(): number | undefined {
    if (this.#intervals.length === 0) return undefined;
    const sorted = [...this.#intervals].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }
}
