// Turns what benchmarks return into the figures the harness prints and writes: checks the shape, summarizes
// samples, compares budgets (reported, never asserted) and computes ratios to a peer.
import { summarize } from './stats.mjs';
import { formatTable } from './table.mjs';

const STATISTICS = new Set(['median', 'p95', 'mean']);

function checkSamples(samples, where) {
  if (!Array.isArray(samples) || samples.length === 0 || !samples.every(Number.isFinite)) {
    throw new Error(`${where} "samples" must be a non-empty array of finite numbers`);
  }
}

// A budget is one limit `{ statistic, max }` (within when strictly below) or `{ statistic, min }` (within when at
// or above), or an array of limits that must all hold.
const limitsOf = (budget) => (Array.isArray(budget) ? budget : [budget]);
const isLimit = (limit) =>
  STATISTICS.has(limit?.statistic) &&
  Number.isFinite(limit.max) !== Number.isFinite(limit.min) &&
  (limit.max === undefined || limit.min === undefined);
const holds = (limit, figures) =>
  limit.max !== undefined ? figures[limit.statistic] < limit.max : figures[limit.statistic] >= limit.min;

const isTally = (tally) =>
  Number.isInteger(tally?.of) && Number.isInteger(tally.passed) && tally.passed >= 0 && tally.passed <= tally.of;

// A count is how many cases passed a check, of how many it applied to: `{ name, passed, of, peer?: { name, passed, of } }`.
function checkCount(benchmark, count, names) {
  const where = `benchmark "${benchmark}" count "${count?.name}"`;
  if (typeof count?.name !== 'string' || count.name === '')
    throw new Error(`benchmark "${benchmark}" has a count without a "name"`);
  if (names.has(count.name)) throw new Error(`${where} is reported twice`);
  names.add(count.name);
  if (!isTally(count)) throw new Error(`${where} needs integers "passed" and "of" with 0 ≤ passed ≤ of`);
  if (count.peer !== undefined && !(typeof count.peer.name === 'string' && isTally(count.peer)))
    throw new Error(`${where} "peer" needs a "name" and integers "passed" and "of" with 0 ≤ passed ≤ of`);
}

/**
 * Validates a benchmark's result: `{ metrics: [{ name, unit, samples, budget?: { statistic, max } | { statistic,
 * min } | [...], peer?: { name, samples } }], counts?: [{ name, passed, of, peer?: { name, passed, of } }],
 * details? }`. Throws a message naming the field when it is malformed.
 */
export function checkBenchmarkResult(benchmark, result) {
  const metrics = result?.metrics;
  if (!Array.isArray(metrics) || metrics.length === 0)
    throw new Error(`benchmark "${benchmark}" must return { metrics: [...] } with at least one metric`);
  const names = new Set();
  for (const count of result.counts ?? []) checkCount(benchmark, count, names);
  for (const metric of metrics) {
    const where = `benchmark "${benchmark}" metric "${metric?.name}"`;
    if (typeof metric?.name !== 'string' || metric.name === '')
      throw new Error(`benchmark "${benchmark}" has a metric without a "name"`);
    if (names.has(metric.name)) throw new Error(`${where} is reported twice`);
    names.add(metric.name);
    if (typeof metric.unit !== 'string' || metric.unit === '') throw new Error(`${where} needs a "unit"`);
    checkSamples(metric.samples, where);
    if (metric.budget !== undefined) {
      const limits = limitsOf(metric.budget);
      if (limits.length === 0 || !limits.every(isLimit)) {
        throw new Error(
          `${where} "budget" must be { statistic: median | p95 | mean, max: number } (or min: number instead of max), or an array of those`,
        );
      }
    }
    if (metric.peer !== undefined) {
      if (typeof metric.peer?.name !== 'string' || metric.peer.name === '')
        throw new Error(`${where} "peer" needs a "name"`);
      checkSamples(metric.peer.samples, `${where} peer`);
    }
  }
}

// Results keep four decimals (0.1 µs for milliseconds): finer digits are timer noise.
const round = (value) => Math.round(value * 1e4) / 1e4;
const roundAll = (figures) => Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, round(value)]));

/** The machine-readable figures of one metric (as written to results.json). */
export function summarizeMetric(metric) {
  const figures = roundAll(summarize(metric.samples));
  const budget = metric.budget ?? null;
  const summary = {
    value: figures.median,
    statistic: 'median',
    unit: metric.unit,
    median: figures.median,
    p95: figures.p95,
    mean: figures.mean,
    min: figures.min,
    max: figures.max,
    samples: figures.count,
    budget,
    withinBudget: budget ? limitsOf(budget).every((limit) => holds(limit, figures)) : null,
  };
  if (metric.peer) {
    const peer = roundAll(summarize(metric.peer.samples));
    summary.peer = {
      name: metric.peer.name,
      median: peer.median,
      p95: peer.p95,
      mean: peer.mean,
      samples: peer.count,
      // Ours over theirs, by median: below 1 means a smaller figure than the peer's.
      ratio: round(figures.median / peer.median),
    };
  }
  return summary;
}

function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  return value.toFixed(magnitude < 10 ? 3 : magnitude < 100 ? 2 : 1);
}

function formatLimit(limit, unit) {
  return limit.max !== undefined
    ? `${limit.statistic} < ${limit.max} ${unit}`
    : `${limit.statistic} ≥ ${limit.min} ${unit}`;
}

// `OVER` when a maximum is broken, `UNDER` when only a minimum is.
function verdictOf(figures) {
  if (figures.withinBudget === null) return '—';
  if (figures.withinBudget) return 'ok';
  const broken = limitsOf(figures.budget).filter((limit) => !holds(limit, figures));
  return broken.some((limit) => limit.max !== undefined) ? 'OVER' : 'UNDER';
}

/** The `counts` of a result as written to results.json: `{ [name]: { passed, of, peer? } }`. */
export function summarizeCounts(counts = []) {
  return Object.fromEntries(
    counts.map(({ name, passed, of, peer }) => [name, { passed, of, ...(peer ? { peer } : {}) }]),
  );
}

/** The terminal table for a run: one row per count and per metric, one per crashed or skipped benchmark. */
export function formatResultsTable(benchmarks) {
  const rows = [];
  let anyPeer = false;
  for (const [name, entry] of Object.entries(benchmarks)) {
    if (entry.error) {
      rows.push({ benchmark: name, metric: '(crashed)', verdict: 'CRASH' });
      continue;
    }
    if (entry.skipped) {
      rows.push({ benchmark: name, metric: '(skipped)', verdict: '—' });
      continue;
    }
    for (const [count, { passed, of, peer }] of Object.entries(entry.counts ?? {})) {
      if (peer) anyPeer = true;
      rows.push({
        benchmark: name,
        metric: count,
        median: `${passed}/${of}`,
        n: of,
        budget: '—',
        verdict: '—',
        peer: peer ? `${peer.passed}/${peer.of} ${peer.name}` : '',
      });
    }
    for (const [metric, figures] of Object.entries(entry.metrics)) {
      const { budget, peer } = figures;
      if (peer) anyPeer = true;
      rows.push({
        benchmark: name,
        metric,
        median: `${formatNumber(figures.median)} ${figures.unit}`,
        p95: `${formatNumber(figures.p95)} ${figures.unit}`,
        n: figures.samples,
        budget: budget
          ? limitsOf(budget)
              .map((limit) => formatLimit(limit, figures.unit))
              .join(', ')
          : '—',
        verdict: verdictOf(figures),
        peer: peer ? `${peer.ratio.toFixed(2)}× ${peer.name}` : '',
      });
    }
  }
  const columns = [
    { key: 'benchmark', title: 'benchmark' },
    { key: 'metric', title: 'metric' },
    { key: 'median', title: 'median', align: 'right' },
    { key: 'p95', title: 'p95', align: 'right' },
    { key: 'n', title: 'n', align: 'right' },
    { key: 'budget', title: 'budget' },
    { key: 'verdict', title: 'verdict' },
  ];
  if (anyPeer) columns.push({ key: 'peer', title: 'vs peer (median)' });
  return formatTable(columns, rows);
}
