/**
 * How a playing media element is kept on the composition clock, as a pure decision on its drift (media time minus
 * composition time, seconds), apart from the DOM so it is unit-tested in Node
 * (test/runtime/frame/drift.node.test.ts).
 */

/** Drift beyond which a playing media element is seeked back onto the composition clock (seconds). */
export const MAX_DRIFT = 0.25;
/**
 * Steering with the playback rate starts beyond ENGAGE (about a frame at 30 fps) and stops below RELEASE. Chromium
 * stalls a playing element for about 25 ms whenever its rate leaves 1, so small drifts are left alone rather than
 * steered on every tick.
 */
export const ENGAGE = 0.03;
export const RELEASE = 0.005;
/** Rate change per second of drift, and its bounds: 40 ms of lag plays at 1.16× until it is gone. */
const RATE_GAIN = 4;
export const MAX_RATE_STEP = 0.2;

/**
 * What to do with a playing element: `jump` (seek it onto the clock), `leave` it as it is, or `steer` it at `rate`
 * (`steering` says whether it is being steered from now on; a released element gets rate 1).
 */
export type DriftAction =
  | { readonly kind: 'jump' }
  | { readonly kind: 'leave' }
  | { readonly kind: 'steer'; readonly rate: number; readonly steering: boolean };

/** The action for an element that drifted by `drift`, `steering` if it was being steered already. */
export function steerDrift(drift: number, steering: boolean): DriftAction {
  const size = Math.abs(drift);
  if (size > MAX_DRIFT) return { kind: 'jump' };
  if (!steering && size <= ENGAGE) return { kind: 'leave' };
  if (size < RELEASE) return { kind: 'steer', rate: 1, steering: false };
  // Steer with the rate rather than seek: a seek stalls decoding and is heard as a click.
  return {
    kind: 'steer',
    rate: 1 - Math.max(-MAX_RATE_STEP, Math.min(MAX_RATE_STEP, drift * RATE_GAIN)),
    steering: true,
  };
}
