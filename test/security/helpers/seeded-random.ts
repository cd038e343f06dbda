/**
 * A small seeded random (mulberry32) so that a run of randomised cancels can be repeated exactly: the seed comes
 * from `FX_TEST_SEED` when set, and every failure message prints it.
 */
export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  below(max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(fallbackSeed: number): SeededRandom {
  const seed = Number(process.env.FX_TEST_SEED ?? fallbackSeed) >>> 0;
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (max: number) => Math.floor(next() * max);
  return { seed, next, below, pick: (items) => items[below(items.length)]! };
}
