// GSAP's `to` tweens take their start values from the element the first time they render, so a timeline remembers
// how it got to a time: jumped there (a preview's seek) or stepped frame by frame (a render). The first time the
// playhead passes a frame, the runtime first renders the timelines at the frames before it where tweens start
// (timeline.ts), so every path gives the render's picture. Nothing is stepped past the playhead: a timeline's
// callbacks may add to the page (a terminal printing its next line), which must not show before its time.
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../../src/runtime/compile/compile.js';
import { mount, probe, PROBE_SCRIPT, whenReady } from '../../elements/helpers.js';
import { openCompiled } from '../compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const ENTRY = new URL('/virtual/index.html', location.href).href;

/**
 * Two tweens of one property, written as GSAP renders `to` tweens: in order, each taking its start value, the first
 * time it renders, from what was rendered before it. The second (0.5 s → 1.5 s, to 200) overlaps the first (0 → 1 s,
 * to 100): stepped through 0.5 s it starts from 50, and is at 125 at 1 s; jumped to 1 s it would start from 100.
 * `listsTweens`: the timeline lists its tweens as GSAP's `getChildren` does.
 */
const composition = (listsTweens = true) => `<!doctype html><html><head>${PROBE_SCRIPT}</head><body>
  <div data-composition-id="main" data-width="320" data-height="180" data-duration="2">
    <div id="box" style="position: absolute; width: 10px; height: 10px; background: #c33"></div>
  </div>
  <script>
    const box = document.getElementById('box');
    const tweens = [{ start: 0, duration: 1, to: 100 }, { start: 0.5, duration: 1, to: 200 }];
    window.__seeks = 0;
    window.__timelines = { main: {
      pause() {},
      duration: () => 2,
      ${listsTweens ? '// As GSAP lists its tweens.\n      getChildren: () => tweens.map((tween) => ({ startTime: () => tween.start })),' : ''}
      seek(time) {
        window.__seeks++;
        let left = 0;
        for (const tween of tweens) {
          if (time < tween.start) continue;
          tween.from ??= left;
          left = tween.from + (tween.to - tween.from) * Math.min(1, (time - tween.start) / tween.duration);
        }
        box.style.left = left + 'px';
        window.__secondFrom = tweens[1].from ?? null;
      },
    } };
  </script>
</body></html>`;

type Frame = Window & typeof globalThis & { __secondFrom: number | null; __seeks: number };

async function load(listsTweens = true): Promise<Frame> {
  const fetch = (async () =>
    new Response(composition(listsTweens), { headers: { 'content-type': 'text/html' } })) as typeof globalThis.fetch;
  return (await openCompiled(await compileComposition(ENTRY, { runtimeUrl: RUNTIME_URL, fetch, fps: 30 }))) as Frame;
}

const left = (frame: Frame) => frame.getComputedStyle(frame.document.getElementById('box')!).left;

describe('timelines that remember how they got to a time', () => {
  it('a seek far ahead shows what stepping frame by frame shows', async () => {
    const jumped = await load();
    expect(await jumped.__fx.seek(1)).to.equal(1);
    expect(jumped.__secondFrom).to.equal(50);
    expect(left(jumped)).to.equal('125px');

    const stepped = await load();
    for (let frame = 0; frame <= 30; frame++) await stepped.__fx.seek(frame / 30);
    expect(stepped.__secondFrom).to.equal(50);
    expect(left(stepped)).to.equal('125px');
  });

  it('so do render workers taking every other frame, a chunk starting mid-way and a seek back', async () => {
    const oddFrames = await load();
    for (let frame = 1; frame <= 29; frame += 2) await oddFrames.__fx.seek(frame / 30);
    await oddFrames.__fx.seek(1);
    expect(left(oddFrames)).to.equal('125px');

    const chunk = await load();
    await chunk.__fx.seek(0.8);
    await chunk.__fx.seek(1);
    expect(left(chunk)).to.equal('125px');

    const back = await load();
    await back.__fx.seek(2);
    await back.__fx.seek(1);
    expect(back.__secondFrom).to.equal(50);
    expect(left(back)).to.equal('125px');
  });

  it('renders only the frames tweens start at and the next, each once', async () => {
    const frame = await load();
    await frame.__fx.seek(2);
    const afterFirstPass = frame.__seeks;
    // The load's seek to 0; frame 1 (after the first tween's start), 15 and 16 (the second's); then 60, sought.
    expect(afterFirstPass).to.equal(5);
    await frame.__fx.seek(0.5);
    await frame.__fx.seek(1.9);
    expect(frame.__seeks - afterFirstPass).to.equal(2);
  });

  it('a timeline that does not list its tweens is sought as it is', async () => {
    const frame = await load(false);
    await frame.__fx.seek(1);
    expect(frame.__seeks).to.equal(2);
    expect(left(frame)).to.equal('150px');
  });

  it('a previewing player steps nothing past the playhead: what callbacks add later is not shown early', async () => {
    // The poster at 0 s: no seek but the load's.
    const element = mount({ 'poster-time': '0' }, { srcdoc: composition() });
    await whenReady(element);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await probe(element, { ask: 'global', name: '__seeks' })).to.equal(1);
    expect(await probe(element, { ask: 'global', name: '__secondFrom' })).to.equal(null);
    await element.seek(1);
    expect(await probe(element, { ask: 'style', selector: '#box', property: 'left' })).to.equal('125px');
  });
});
