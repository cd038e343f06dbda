// Summary statistics for timing samples. Percentiles use the nearest-rank method, so every figure reported is a
// sample that was actually observed (no interpolation between two runs).

function sorted(samples) {
  return [...samples].sort((a, b) => a - b);
}

/** The nearest-rank percentile `p` (0–100) of `samples`. */
export function percentile(samples, p) {
  if (samples.length === 0) return Number.NaN;
  const ordered = sorted(samples);
  const rank = Math.max(1, Math.ceil((p / 100) * ordered.length));
  return ordered[rank - 1];
}

/** The middle sample; the mean of the two middle samples when the count is even. */
export function median(samples) {
  if (samples.length === 0) return Number.NaN;
  const ordered = sorted(samples);
  const middle = Math.floor(ordered.length / 2);
  return ordered.length % 2 === 1 ? ordered[middle] : (ordered[middle - 1] + ordered[middle]) / 2;
}

export function p95(samples) {
  return percentile(samples, 95);
}

/** `value` to `digits` decimals, for reports. */
export function round(value, digits = 2) {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

export function mean(samples) {
  if (samples.length === 0) return Number.NaN;
  return samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
}

/** Every figure the harness reports for one list of samples. */
export function summarize(samples) {
  return {
    median: median(samples),
    p95: p95(samples),
    mean: mean(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    count: samples.length,
  };
}
