// The real-composition pool of the player benchmark (issue 13 §4): HyperFrames registry blocks from a local
// snapshot (blocks.mjs). Every block is checked with both players (block-checks.mjs); 20 offline-capable blocks
// both players load are then timed side by side with the same code as our own compositions (load.mjs, scrub.mjs)
// and profiled (profile.mjs).
import { median, p95, round } from '../lib/stats.mjs';
import { checkBlocks, CHECKS, summarizeChecks } from './block-checks.mjs';
import { BLOCKS_PREFIX, blocksSource, installBlocks, poolOf } from './blocks.mjs';
import { measureLoadToReady } from './load.mjs';
import { measureOverrideVisible, overrideRatios } from './override-visible.mjs';
import { profileBlocks } from './profile.mjs';
import { measureScrub, paintFloorOf } from './scrub.mjs';
import { PEER_NAME } from './setup.mjs';

const KINDS = ['fx', 'peer'];
const PLAN = { size: 20, coldRepetitions: 1, warmRepetitions: 1, scrubSeeks: 100, profiled: 10 };
// Budgets from issue 13 §4, relative to the peer's figures of this same run.
const LOAD_RATIO = 0.5;
const SCRUB_RATIO = 0.8;
// Issue 13 §2: an override on a read-at-load block shows within half the peer's re-mount on the same block.
const OVERRIDE_RATIO = 0.5;

const peerOf = (samples) => ({ name: PEER_NAME, samples });

/** The median over blocks of each block's fx median / peer median (`byBlock[name][kind]` arrays). */
function pairedRatio(byBlock) {
  return round(median(Object.values(byBlock).map((players) => median(players.fx) / median(players.peer))), 3);
}

function countsOf(summary, checked) {
  const counts = [{ name: 'pool offline-capable', passed: summary.offline.length, of: checked }];
  for (const check of CHECKS) {
    const { fx, peer } = summary.counts[check];
    if (!fx) continue;
    counts.push({ name: `pool ${check}`, ...fx, ...(peer ? { peer: { name: PEER_NAME, ...peer } } : {}) });
  }
  return counts;
}

/** Our override samples over every timed block against the peer's re-mounts of the same blocks. */
function overrideMetricsOf({ byBlock }) {
  const timed = Object.values(byBlock);
  if (timed.length === 0) return [];
  const fx = timed.flatMap((players) => players.fx);
  const peer = timed.flatMap((players) => players.peer);
  return [
    {
      name: 'pool override→visible (read-at-load)',
      unit: 'ms',
      samples: fx,
      budget: { statistic: 'median', max: round(OVERRIDE_RATIO * median(peer), 1) },
      peer: peerOf(peer),
    },
  ];
}

function overrideRatiosOf({ byBlock, fxPagePaint }) {
  if (Object.keys(byBlock).length === 0) return { byBlock: {} };
  const { ratios, median: pairedMedian } = overrideRatios(byBlock);
  // The previous reading, a frame more on ours: up to the page's next paint after the frame's answer.
  const conservative = Object.fromEntries(
    Object.entries(byBlock).map(([name, players]) => [name, { fx: fxPagePaint[name], peer: players.peer }]),
  );
  const { ratios: conservativeRatios, median: conservativeMedian } = overrideRatios(conservative);
  const pagePaintMedian = median(Object.values(fxPagePaint).flat());
  return {
    pairedMedianRatio: round(pairedMedian, 3),
    atMostHalf: Object.values(ratios).filter((ratio) => ratio <= OVERRIDE_RATIO).length,
    medianMsByBlock: Object.fromEntries(
      Object.entries(byBlock).map(([name, players]) => [
        name,
        { fx: round(median(players.fx), 1), peer: round(median(players.peer), 1), ratio: round(ratios[name], 3) },
      ]),
    ),
    withPagePaint: {
      medianMs: round(pagePaintMedian, 1),
      ratio: round(pagePaintMedian / median(Object.values(byBlock).flatMap((p) => p.peer)), 3),
      pairedMedianRatio: round(conservativeMedian, 3),
      atMostHalf: Object.values(conservativeRatios).filter((ratio) => ratio <= OVERRIDE_RATIO).length,
      ratioByBlock: Object.fromEntries(
        Object.entries(conservativeRatios).map(([name, ratio]) => [name, round(ratio, 3)]),
      ),
    },
  };
}

/**
 * Runs the pool when `FX_BENCH_BLOCKS` names a snapshot folder. Returns `{ counts, metrics, details }`, or
 * `{ details: { skipped } }` saying why there is no pool. `timed(label, fn)` logs how long each part took.
 */
export async function measurePool(context, { peer, timed }) {
  const source = await blocksSource();
  if (source.skipped) return { counts: [], metrics: [], details: { skipped: source.skipped } };
  const listed = await installBlocks(source.folder);
  try {
    return await measureInstalledPool(context, { peer, timed, source, listed });
  } finally {
    await listed.remove();
  }
}

async function measureInstalledPool(context, { peer, timed, source, listed }) {
  const blocks = poolOf(listed.blocks, source.limit);
  await context.serveFolder(BLOCKS_PREFIX, listed.folder);

  const results = await timed(`pool: checks, ${blocks.length} blocks × ${KINDS.join(' + ')}`, () =>
    checkBlocks(context, { blocks, peer, kinds: KINDS, log: context.log }),
  );
  const summary = summarizeChecks(results, KINDS);
  const timeable = blocks.filter(
    ({ name }) =>
      summary.offline.includes(name) &&
      KINDS.every((kind) => results[name][kind].checks.ready && results[name][kind].checks.seeks),
  );
  const pool = poolOf(timeable, PLAN.size);
  const details = {
    source: source.folder,
    limit: Number.isFinite(source.limit) ? source.limit : null,
    checked: blocks.map(({ name }) => name),
    unusable: listed.unusable,
    notOfflineCapable: summary.external,
    counts: summary.counts,
    failures: summary.failures,
    overrideVisibleMs: Object.fromEntries(
      Object.entries(results)
        .filter(([, byKind]) => byKind.fx?.overrideVisibleMs !== undefined)
        .map(([name, byKind]) => [name, Math.round(byKind.fx.overrideVisibleMs)]),
    ),
    pool: pool.map(({ name }) => name),
  };
  // Every block whose text override the checks saw shown (those showing it through bindings alone are set aside).
  const overridden = blocks
    .filter(({ name }) => results[name].fx?.checks.overrides && results[name].peer?.checks.ready)
    .map((block) => ({ ...block, folder: listed.folder, variable: results[block.name].fx.textVariable }));
  const override = await timed(`pool: override on read-at-load blocks, ${overridden.length} candidates`, () =>
    measureOverrideVisible(context, { blocks: overridden, peer }),
  );
  const overrideMetrics = overrideMetricsOf(override);
  details.overrideVisible = {
    ...overrideRatiosOf(override),
    how: override.how,
    bindingsOnly: override.bindingsOnly,
    failed: override.failed,
    method:
      'ours: el.variables = { [id]: text } with the playhead parked → the frame\'s answer, sent in the task after the frame\'s paint that shows the scripts run again in place ("in place"), or the page\'s paint after the reloaded frame swapped in ("reload"). Peer: srcdoc re-mount of the block with window.__hfVariables → "ready" → seek(playhead) → the task after the page\'s next paint (its frame paints with the page). withPagePaint: ours up to the page\'s next paint after the answer, a frame more (the previous reading). The shown text is checked after every sample.',
  };
  if (pool.length === 0) return { counts: countsOf(summary, blocks.length), metrics: overrideMetrics, details };

  const load = await timed(
    `pool: load-to-ready, ${pool.length} blocks × (${PLAN.coldRepetitions} cold + ${PLAN.warmRepetitions} warm)`,
    () => measureLoadToReady(context, { compositions: pool, peer, ...PLAN }),
  );
  const scrub = await timed(`pool: scrub, ${PLAN.scrubSeeks} seeks`, () =>
    measureScrub(context, { compositions: pool, peer, count: PLAN.scrubSeeks }),
  );
  const profiled = poolOf(pool, PLAN.profiled);
  const profile = await timed(`pool: profile, ${profiled.length} blocks`, () =>
    profileBlocks(context, { blocks: profiled, peer }),
  );

  const loadBudget = (samples) => ({ statistic: 'median', max: round(LOAD_RATIO * median(samples), 1) });
  const phase = (name) =>
    Object.fromEntries(Object.entries(load.byComposition).map(([block, phases]) => [block, phases[name]]));
  return {
    counts: countsOf(summary, blocks.length),
    metrics: [
      ...overrideMetrics,
      {
        name: 'pool load→ready cold',
        unit: 'ms',
        samples: load.cold.fx,
        budget: loadBudget(load.cold.peer),
        peer: peerOf(load.cold.peer),
      },
      {
        name: 'pool load→ready warm',
        unit: 'ms',
        samples: load.warm.fx,
        budget: loadBudget(load.warm.peer),
        peer: peerOf(load.warm.peer),
      },
      {
        name: 'pool scrub seek→painted',
        unit: 'ms',
        samples: scrub.samples.fx,
        budget: [
          { statistic: 'median', max: round(SCRUB_RATIO * median(scrub.samples.peer)) },
          { statistic: 'p95', max: round(SCRUB_RATIO * p95(scrub.samples.peer)) },
        ],
        peer: peerOf(scrub.samples.peer),
      },
    ],
    details: {
      ...details,
      plan: PLAN,
      budgets: `load→ready median ≤ ${LOAD_RATIO}× the peer's (cold and warm); scrub median and p95 ≤ ${SCRUB_RATIO}× the peer's; override→visible on read-at-load blocks median ≤ ${OVERRIDE_RATIO}× the peer's re-mount`,
      pairedMedianRatios: {
        cold: pairedRatio(phase('cold')),
        warm: pairedRatio(phase('warm')),
        scrub: pairedRatio(scrub.byComposition),
      },
      scrubP95Ratio: round(p95(scrub.samples.fx) / p95(scrub.samples.peer), 3),
      scrubPaintFloor: paintFloorOf(scrub),
      medianMsByBlock: Object.fromEntries(
        pool.map(({ name }) => [
          name,
          Object.fromEntries(
            [...Object.entries(load.byComposition[name]), ['scrub', scrub.byComposition[name]]].map(
              ([phase, players]) => [phase, { fx: round(median(players.fx), 1), peer: round(median(players.peer), 1) }],
            ),
          ),
        ]),
      ),
      peerAssetsReadyMedianMs: {
        cold: round(median(load.peerAssetsReady.cold), 1),
        warm: round(median(load.peerAssetsReady.warm), 1),
      },
      profiled: profiled.map(({ name }) => name),
      profileMedianMs: profile,
    },
  };
}
