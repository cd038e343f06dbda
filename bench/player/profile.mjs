// Where load and seek time goes, per player, on real compositions (issue 13 §4). Read from the outside — the
// page's clock, the frame's navigation timing and probes wrapped around the composition's timelines — so neither
// player's code changes. Frame epochs are moved to the page's clock by ping calibration, as for live updates.
//
// Load (one warm page per player): host (src set → a frame was put in the player; ours: compile and mount) →
// frame start (→ the frame document's time origin) → frame DOM (→ DOMContentLoaded done: parse and scripts) →
// frame subresources (→ load event done) → ready (→ the player's `ready` event).
// Seek: message (host `seek()` → the first timeline seek in the frame) → timeline seek (→ the last one returned) →
// wait for frame (→ the frame's next animation frame: asset checks and the vsync wait) → style+layout (→ layout done:
// the frame's animation-frame callbacks, style, layout) → paint (→ the task after that frame's paint) → reply
// (→ `seek()` resolved on the host).
import { median } from '../lib/stats.mjs';
import { installPingResponder, installSeekProbe, navigationMilestones, takeSeekProbe } from './frame-probes.mjs';
import { seekPlan } from './scrub.mjs';
import { inPage, openPlayerPage, playerFrame } from './setup.mjs';

const SEEKS_PER_BLOCK = 4;
const CLOCK_PINGS = 10;

export const LOAD_PHASES = ['host', 'frame start', 'frame DOM', 'frame subresources', 'ready'];
export const SEEK_PHASES = ['message', 'timeline seek', 'wait for frame', 'style+layout', 'paint', 'reply'];

/** Consecutive differences of `marks` (null marks are skipped: their phase joins the next one). */
function phases(names, marks) {
  const out = {};
  let previous = marks[0];
  for (const [index, name] of names.entries()) {
    const mark = marks[index + 1];
    if (mark === null || mark === undefined) {
      out[name] = null;
      continue;
    }
    out[name] = mark - previous;
    previous = mark;
  }
  return out;
}

async function frameClock(page, pageModule) {
  const frame = await playerFrame(page);
  await frame.evaluate(installPingResponder);
  const { offset } = await inPage(page, pageModule, 'calibrateFrameClock', { pings: CLOCK_PINGS });
  return { frame, toPage: (epoch) => (epoch === null ? null : epoch - offset) };
}

async function profileLoad(context, page, pageModule, kind, block) {
  const loaded = await inPage(page, pageModule, 'loadProfiled', kind, await context.url(block.path));
  const { frame, toPage } = await frameClock(page, pageModule);
  const navigation = await frame.evaluate(navigationMilestones);
  const marks = [
    loaded.start,
    loaded.framed,
    toPage(navigation.start),
    toPage(navigation.domContentLoaded),
    toPage(navigation.loaded),
    loaded.readyAt,
  ];
  return { phases: phases(LOAD_PHASES, marks), duration: loaded.duration, frame, toPage };
}

/** Splits each host seek by the probe calls that happened inside it. */
function seekPhases(seeks, calls, toPage) {
  return seeks.flatMap((seek) => {
    const inside = calls.filter((call) => toPage(call.start) >= seek.start - 1 && toPage(call.start) <= seek.end);
    const last = inside.at(-1);
    if (!last || last.painted === undefined) return [];
    const marks = [seek.start, toPage(inside[0].start), toPage(last.end), toPage(last.frame)];
    marks.push(toPage(last.laidOut ?? null), toPage(last.painted));
    return [phases(SEEK_PHASES, [...marks, seek.end])];
  });
}

/**
 * Profiles each of `blocks` with both players on one warm page each (an unrecorded first load warms it). Returns
 * `{ load: { fx, peer }, seek: { fx, peer } }`, each `{ [phase]: median ms }` over the blocks' samples, plus
 * `seekSamples` (how many seeks the probes could split).
 */
export async function profileBlocks(context, { blocks, peer }) {
  const load = { fx: [], peer: [] };
  const seek = { fx: [], peer: [] };
  for (const kind of ['fx', 'peer']) {
    const { page, pageModule, close } = await openPlayerPage(context, kind, peer);
    try {
      await inPage(page, pageModule, 'load', kind, await context.url(blocks[0].path));
      for (const [index, block] of blocks.entries()) {
        const profiled = await profileLoad(context, page, pageModule, kind, block);
        load[kind].push(profiled.phases);
        await profiled.frame.evaluate(installSeekProbe);
        const { times, delays } = seekPlan(SEEKS_PER_BLOCK, profiled.duration, 0x9f0f + index);
        const seeks = await inPage(page, pageModule, 'seeksTimed', times, delays);
        seek[kind].push(...seekPhases(seeks, await profiled.frame.evaluate(takeSeekProbe), profiled.toPage));
      }
    } finally {
      await close();
    }
  }
  const medians = (rows, names) =>
    Object.fromEntries(
      names.map((name) => {
        const values = rows.map((row) => row[name]).filter((value) => value !== null);
        return [name, values.length > 0 ? Math.round(median(values) * 100) / 100 : null];
      }),
    );
  return {
    load: { fx: medians(load.fx, LOAD_PHASES), peer: medians(load.peer, LOAD_PHASES) },
    seek: { fx: medians(seek.fx, SEEK_PHASES), peer: medians(seek.peer, SEEK_PHASES) },
    seekSamples: { fx: seek.fx.length, peer: seek.peer.length },
  };
}
