// Live variable update on the 100-variable / 200-binding composition of the bindings benchmark: every update
// gives all 100 variables new values, with the playhead parked mid-composition.
//
// Ours: `element.variables = values`; a probe in the frame watches the first `data-var-text="s0"` span and
// reports (epoch time, converted to the page's clock by ping calibration) when the new text reached the DOM, when
// style and layout were done after it (the frame could paint it), and when the next paint happened.
// The peer cannot update in place: each change re-mounts the document (`srcdoc` with `window.__hfVariables`);
// a probe in the new document reports the first paint showing the new text.
import { overridesAt, valueAt, variableList } from '../bindings/fixture.mjs';
import { serveVariablesFixture } from './compositions.mjs';
import { directWrites, installPingResponder, peerVisibilityProbe, watchText } from './frame-probes.mjs';
import { inPage, openPlayerPage, playerFrame } from './setup.mjs';

const WATCHED = '[data-var-text="s0"]';
const PLAYHEAD = 1.5;

const expectedText = (variables, iteration) =>
  valueAt(
    variables.find((variable) => variable.id === 's0'),
    iteration,
  );

// Inline-script-safe JSON: `<` never appears, so no value can close the script element.
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The peer's document for one set of values: overrides and the visibility probe run before its runtime. */
function peerDocument(html, values, expected) {
  const injected = `<script>window.__hfVariables = ${scriptJson(values)};</script><script>(${peerVisibilityProbe})(${scriptJson(WATCHED)}, ${scriptJson(expected)});</script>`;
  const at = html.indexOf('<head>');
  if (at < 0) throw new Error('the variables fixture has no <head>');
  return html.slice(0, at) + injected + html.slice(at);
}

async function measureOurs(context, { peer, warmup, samples }) {
  const { page, pageModule, close } = await openPlayerPage(context, 'fx', peer);
  try {
    const fixture = await serveVariablesFixture(context, page);
    const variables = variableList();
    await inPage(page, pageModule, 'load', 'fx', fixture.url);
    await inPage(page, pageModule, 'seek', PLAYHEAD);
    const frame = await playerFrame(page);
    await frame.evaluate(installPingResponder);
    await frame.evaluate(watchText, WATCHED);
    const clock = await inPage(page, pageModule, 'calibrateFrameClock');
    const figures = { event: [], dom: [], layout: [], painted: [], playheadShift: [] };
    for (let iteration = 0; iteration < warmup + samples; iteration++) {
      const result = await inPage(
        page,
        pageModule,
        'updateVariablesInPlace',
        overridesAt(variables, iteration),
        expectedText(variables, iteration),
        clock.offset,
      );
      if (iteration < warmup) continue;
      figures.event.push(result.eventMs);
      figures.dom.push(result.domMs);
      figures.layout.push(result.layoutMs);
      figures.painted.push(result.paintedMs);
      figures.playheadShift.push(result.playheadShift);
    }
    const frameTime = await frame.evaluate(() => window.__fx.currentTime);
    if (frameTime !== PLAYHEAD)
      throw new Error(`after the updates our frame is at ${frameTime} s, expected ${PLAYHEAD} s`);
    // The floor: the same kind of DOM writes made directly in the frame, continuing with new values.
    const floor = { write: [], layout: [] };
    for (let iteration = 0; iteration < warmup + samples; iteration++) {
      const result = await frame.evaluate(directWrites, overridesAt(variables, warmup + samples + iteration));
      if (iteration < warmup) continue;
      floor.write.push(result.writeMs);
      floor.layout.push(result.layoutMs);
    }
    return { figures, floor, clock, compositionId: fixture.compositionId, html: fixture.html };
  } finally {
    await close();
  }
}

async function measurePeer(context, { peer, html, warmup, samples }) {
  const { page, pageModule, close } = await openPlayerPage(context, 'peer', peer);
  try {
    const variables = variableList();
    await inPage(page, pageModule, 'loadSrcdoc', 'peer', html);
    const figures = { painted: [], ready: [], playheadShift: [], timeAfter: [] };
    for (let iteration = 0; iteration < warmup + samples; iteration++) {
      const landed = await inPage(page, pageModule, 'seek', PLAYHEAD);
      if (Math.abs(landed - PLAYHEAD) > 1e-3) throw new Error(`the peer's seek to ${PLAYHEAD} s landed at ${landed} s`);
      const expected = expectedText(variables, iteration);
      const result = await inPage(
        page,
        pageModule,
        'remountWithVariables',
        peerDocument(html, overridesAt(variables, iteration), expected),
        expected,
      );
      if (iteration < warmup) continue;
      figures.painted.push(result.paintedMs);
      figures.ready.push(result.readyMs);
      figures.playheadShift.push(result.playheadShift);
      figures.timeAfter.push(result.timeAfter);
    }
    return { figures };
  } finally {
    await close();
  }
}

/**
 * Returns `{ fx, floor, peer, clock }`: per-update figures of both players, the browser's floor for the same
 * writes made directly in our frame (`{ write, layout }`), and the frame-clock calibration used.
 */
export async function measureLiveUpdate(context, { peer, warmup, samples }) {
  const fx = await measureOurs(context, { peer, warmup: warmup.fx, samples: samples.fx });
  const peerResult = await measurePeer(context, { peer, html: fx.html, warmup: warmup.peer, samples: samples.peer });
  return { fx: fx.figures, floor: fx.floor, peer: peerResult.figures, clock: fx.clock };
}
