// Scrub latency: `seek(t)` until the frame showing `t` was painted, for the same pseudo-random times on both
// players. Ours answers once its isolated frame painted; the peer's `seek()` is synchronous (its frame shares the
// page's process), so the page's next paint is awaited.
import { median, p95, round } from '../lib/stats.mjs';
import { inPage, openPlayerPage } from './setup.mjs';

const WARMUP_SEEKS = 5;
// Both players quantize to a 30 fps frame grid (ours rounds, the peer's runtime floors): one frame either way.
export const LANDING_TOLERANCE = 1 / 30 + 1e-6;

const FRAME_MS = 1000 / 60;

/** Deterministic numbers in [0, 1): a small LCG, so every run and both players seek the same way. */
export function pseudoRandom(count, seed) {
  let state = seed >>> 0;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  });
}

/** `count` seek times in [0, duration) (millisecond steps) and, for each, a delay within one frame to start it at. */
export function seekPlan(count, duration, seed) {
  return {
    times: pseudoRandom(count, seed).map((value) => Math.round(value * duration * 1000) / 1000),
    delays: pseudoRandom(count, seed ^ 0x9e3779b9).map((value) => Math.floor(value * FRAME_MS)),
  };
}

/**
 * Seeks `count` times on each of `compositions` (split evenly) and returns `{ fx, peer }` arrays of milliseconds
 * plus per-composition samples and the paint floor (`floor`: the page's next paint from the same start points). One page per player loads the compositions in turn, the players alternating
 * composition by composition. Throws when a seek lands more than a frame away from where it was asked to.
 */
export async function measureScrub(context, { compositions, peer, count }) {
  const perComposition = Math.ceil(count / compositions.length);
  const samples = { fx: [], peer: [] };
  // The page's next paint from the same start points, seeking nothing, on each player's page: no seek that resolves
  // once painted can beat it.
  const floor = { fx: [], peer: [] };
  const byComposition = {};
  const pages = {};
  try {
    for (const kind of ['fx', 'peer']) pages[kind] = await openPlayerPage(context, kind, peer);
    for (const [index, composition] of compositions.entries()) {
      byComposition[composition.name] = {};
      for (const kind of ['fx', 'peer']) {
        const { page, pageModule } = pages[kind];
        const { duration } = await inPage(page, pageModule, 'load', kind, await context.url(composition.path));
        const warmup = seekPlan(WARMUP_SEEKS, duration, 0xbeef + index);
        await inPage(page, pageModule, 'scrub', kind, warmup.times, warmup.delays);
        const { times, delays } = seekPlan(perComposition, duration, 0x5eed + index);
        const result = await inPage(page, pageModule, 'scrub', kind, times, delays);
        const off = result.landed.findIndex((landed, k) => !(Math.abs(landed - times[k]) <= LANDING_TOLERANCE));
        if (off >= 0)
          throw new Error(`${kind} seek to ${times[off]} s on "${composition.name}" landed at ${result.landed[off]} s`);
        samples[kind].push(...result.samples);
        floor[kind].push(...(await inPage(page, pageModule, 'paintFloor', delays)));
        byComposition[composition.name][kind] = result.samples;
      }
    }
  } finally {
    await Promise.allSettled(Object.values(pages).map(({ close }) => close()));
  }
  return { samples, floor, byComposition, times: perComposition * compositions.length };
}

/**
 * The scrub's floor (the page's next paint from the same start points, seeking nothing) on each player's page, and
 * each player's median and p95 over it: a seek that resolves once painted stays at or above 1.
 */
export function paintFloorOf({ samples, floor }) {
  const figures = (values) => ({ median: round(median(values), 2), p95: round(p95(values), 2) });
  const over = (kind) => ({
    median: round(median(samples[kind]) / median(floor[kind]), 3),
    p95: round(p95(samples[kind]) / p95(floor[kind]), 3),
  });
  return { fx: figures(floor.fx), peer: figures(floor.peer), fxOverFloor: over('fx'), peerOverFloor: over('peer') };
}

/** A seek this long after the last answer is on its own (the paint settler's scrub gap is 100 ms). */
export const ON_ITS_OWN_GAP_MS = 300;

/**
 * Ours in Chromium: `count` seeks (split over `compositions`), each {@link ON_ITS_OWN_GAP_MS} after the last answer,
 * as before a screenshot; milliseconds from each call to its answer (the same times webkit.mjs seeks to).
 */
export async function measureSeeksOnTheirOwn(context, { compositions, count, peer }) {
  const { page, pageModule, close } = await openPlayerPage(context, 'fx', peer);
  const samples = [];
  try {
    for (const [index, composition] of compositions.entries()) {
      const { duration } = await inPage(page, pageModule, 'load', 'fx', await context.url(composition.path));
      const { times } = seekPlan(Math.ceil(count / compositions.length), duration, 0x0c0 + index);
      samples.push(...(await inPage(page, pageModule, 'seeksOnTheirOwn', times, ON_ITS_OWN_GAP_MS)));
    }
  } finally {
    await close();
  }
  return samples;
}
