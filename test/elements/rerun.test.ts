// Scripts that read values once, at load, run again in place when a value changes (src/runtime/frame/rerun.ts): the
// same frame shows the new value at the playhead, in the frame it answers after; what cannot run again faithfully
// is reloaded instead (live-variables.test.ts has the reload itself).
import { expect } from '@open-wc/testing';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import {
  compositionHtml,
  frameOf,
  mount,
  probe,
  recordEvents,
  pixelsOf,
  sleep,
  waitFor,
  watchUncaught,
  updateVariables,
  whenReady,
} from './helpers.js';

const DECLARATIONS = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
];
const BAR = '<div id="bar" style="position: absolute; left: 0; top: 100px; width: 40px; height: 40px"></div>';
// The bar moves 100 px a second; `seek` of the registered timeline puts it there.
const TIMELINE = `window.__timelines = window.__timelines || {};
  window.__timelines.main = { seek: function (t) { bar.style.left = Math.round(t * 100) + 'px'; return this; }, pause: function () { return this; } };`;
// A HyperFrames-style block: one IIFE reads the values into the DOM and registers the timeline.
const BLOCK = `<h1 id="upper"></h1>${BAR}<script>(function () {
  var vars = window.__hyperframes.getVariables();
  document.getElementById('upper').textContent = vars.title.toUpperCase();
  var bar = document.getElementById('bar');
  bar.style.background = vars.accent;
  ${TIMELINE}
})();</script>`;
const GREEN = [0, 255, 0, 255];
const RELOAD_SETTLE_MS = 400;

const composition = (body: string) => compositionHtml({ duration: 3, variables: DECLARATIONS, body });

const text = (el: FxComposition, selector = '#upper') => probe(el, { ask: 'text', selector });

describe('<fx-composition> runs scripts that read values at load again, in place', () => {
  it('shows the new values in the same frame, at the playhead, paused, in the frame it answers after', async () => {
    const uncaught = watchUncaught();
    const el = await whenReady(mount({}, { srcdoc: composition(BLOCK) }));
    await el.seek(1.5);
    const frame = frameOf(el);
    const seen = recordEvents(el, ['ready', 'loadedmetadata', 'loadstart', 'error']);
    const detail = await updateVariables(el, { title: 'Anew', accent: '#00ff00' });
    // The answer leaves once the frame showing the new values was painted: the page shows them now.
    const pixel = await pixelsOf(el);
    expect(pixel(150 + 20, 120)).to.deep.equal(GREEN);
    expect(pixel(150 - 5, 120)).to.not.deep.equal(GREEN);
    expect(detail.reloading).to.equal(false);
    expect(detail.values).to.deep.include({ title: 'Anew', accent: '#00ff00' });
    expect(await text(el)).to.equal('ANEW');
    expect(frameOf(el)).to.equal(frame);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    expect([el.currentTime, el.paused]).to.deep.equal([1.5, true]);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ currentTime: 1.5, paused: true });
    await sleep(RELOAD_SETTLE_MS);
    expect(seen).to.deep.equal([]);
    expect(frameOf(el)).to.equal(frame);
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('runs them again at every change, the last value showing', async () => {
    const el = await whenReady(mount({}, { srcdoc: composition(BLOCK) }));
    const frame = frameOf(el);
    for (const title of ['one', 'two', 'three']) await updateVariables(el, { title });
    expect(await text(el)).to.equal('THREE');
    expect(frameOf(el)).to.equal(frame);
  });

  it('keeps playing through a change, from where it was', async () => {
    const el = await whenReady(mount({}, { srcdoc: composition(BLOCK) }));
    const frame = frameOf(el);
    await el.play();
    await sleep(300);
    const before = el.currentTime;
    await updateVariables(el, { title: 'playing' });
    await sleep(200);
    expect(el.paused).to.equal(false);
    expect(el.currentTime).to.be.greaterThan(before);
    expect(await text(el)).to.equal('PLAYING');
    expect(frameOf(el)).to.equal(frame);
  });

  it('runs a body whose only script declares top-level const and let (inside a block), again and again', async () => {
    const el = await whenReady(
      mount(
        {},
        {
          srcdoc: composition(
            `<p id="upper"></p><script>const vars = window.__fx.getVariables();\nlet upper = document.getElementById('upper');\nupper.textContent = vars.title.toUpperCase();</script>`,
          ),
        },
      ),
    );
    const frame = frameOf(el);
    await updateVariables(el, { title: 'one' });
    await updateVariables(el, { title: 'two' });
    expect(await text(el)).to.equal('TWO');
    expect(frameOf(el)).to.equal(frame);
  });

  it('applies the playhead after scripts that build again on document.fonts.ready', async () => {
    // Like GSAP blocks that rebuild once fonts load: `build` puts the bar back at its start, after the rerun's task.
    const rebuilds = `<h1 id="upper"></h1>${BAR}<script>(function () {
      var vars = window.__fx.getVariables();
      var bar = document.getElementById('bar');
      function build() {
        bar.style.left = '0px';
        bar.style.background = vars.accent;
        document.getElementById('upper').textContent = vars.title;
        ${TIMELINE}
      }
      build();
      document.fonts.ready.then(build);
    })();</script>`;
    const el = await whenReady(mount({}, { srcdoc: composition(rebuilds) }));
    await el.seek(2);
    const frame = frameOf(el);
    await updateVariables(el, { title: 'rebuilt', accent: '#00ff00' });
    const pixel = await pixelsOf(el);
    expect(pixel(200 + 20, 120)).to.deep.equal(GREEN);
    expect(pixel(20, 120)).to.not.deep.equal(GREEN);
    expect(await probe(el, { ask: 'style', selector: '#bar', property: 'left' })).to.equal('200px');
    expect(frameOf(el)).to.equal(frame);
  });

  it('steps through the tweens scripts add from a promise callback, as a render does', async () => {
    // Two tweens of one property as GSAP renders `to` tweens (timeline-steps.test.ts): the second (0.5 s → 1.5 s, to
    // 200) takes its start value the first time it renders, so stepped through 0.5 s it is at 125 px at 1 s, and
    // jumped there at 150. The timeline is built once fonts are ready, after the rerun's own task.
    const tweens = `<h1 id="upper"></h1>${BAR}<script>(function () {
      var vars = window.__fx.getVariables();
      var bar = document.getElementById('bar');
      document.fonts.ready.then(function () {
        document.getElementById('upper').textContent = vars.title;
        bar.style.background = vars.accent;
        var tweens = [{ start: 0, duration: 1, to: 100 }, { start: 0.5, duration: 1, to: 200 }];
        window.__timelines = window.__timelines || {};
        window.__timelines.main = {
          pause: function () { return this; },
          getChildren: function () { return tweens.map(function (t) { return { startTime: function () { return t.start; } }; }); },
          seek: function (time) {
            var left = 0;
            tweens.forEach(function (t) {
              if (time < t.start) return;
              if (t.from === undefined) t.from = left;
              left = t.from + (t.to - t.from) * Math.min(1, (time - t.start) / t.duration);
            });
            bar.style.left = left + 'px';
            return this;
          },
        };
      });
    })();</script>`;
    const el = await whenReady(mount({}, { srcdoc: composition(tweens) }));
    await el.seek(1);
    const left = () => probe(el, { ask: 'style', selector: '#bar', property: 'left' });
    expect(await left()).to.equal('125px');
    const frame = frameOf(el);
    const detail = await updateVariables(el, { title: 'stepped', accent: '#00ff00' });
    expect(detail.reloading).to.equal(false);
    expect(frameOf(el)).to.equal(frame);
    expect(await text(el)).to.equal('stepped');
    expect(await left()).to.equal('125px');
  });

  it('holds Date.now() while the scripts run again, as while they loaded', async () => {
    // Tens of milliseconds of work between two reads: a held clock does not see it.
    const timed = `<h1 id="upper"></h1><p id="elapsed"></p><script>(function () {
      var before = Date.now();
      var x = 0;
      for (var i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003;
      window.__work = x;
      document.getElementById('upper').textContent = window.__fx.getVariables().title;
      document.getElementById('elapsed').textContent = String(Date.now() - before);
    })();</script>`;
    const el = await whenReady(mount({}, { srcdoc: composition(timed) }));
    const elapsed = () => probe(el, { ask: 'text', selector: '#elapsed' });
    expect(await elapsed()).to.equal('0');
    const frame = frameOf(el);
    await updateVariables(el, { title: 'timed' });
    expect(frameOf(el)).to.equal(frame);
    expect(await text(el)).to.equal('timed');
    expect(await elapsed()).to.equal('0');
  });

  it('calls the DOMContentLoaded and load listeners the scripts add again (those events fired long ago), in that order', async () => {
    const listeners = `<p id="upper"></p><p id="order"></p><script>
      var title = window.__fx.getVariables().title;
      var order = document.getElementById('order');
      // Bare calls too (no receiver): the runtime watches these listeners while the document loads.
      addEventListener('load', function () { order.textContent += 'load'; });
      addEventListener('fx-test', function () { document.body.dataset.heard = title; });
      dispatchEvent(new Event('fx-test'));
      document.addEventListener('DOMContentLoaded', function () {
        document.getElementById('upper').textContent = title.toUpperCase();
        order.textContent += 'ready,';
      });
    </script>`;
    const el = await whenReady(mount({}, { srcdoc: composition(listeners) }));
    expect(await text(el)).to.equal('HELLO');
    expect(await text(el, '#order')).to.equal('ready,load');
    expect(await probe(el, { ask: 'attribute', selector: 'body', name: 'data-heard' })).to.equal('Hello');
    const frame = frameOf(el);
    await updateVariables(el, { title: 'Listened' });
    expect(await text(el)).to.equal('LISTENED');
    expect(await text(el, '#order')).to.equal('ready,load');
    expect(await probe(el, { ask: 'attribute', selector: 'body', name: 'data-heard' })).to.equal('Listened');
    expect(frameOf(el)).to.equal(frame);
  });

  it('shows its images in the first frame after a change (the new image elements find them decoded)', async () => {
    // Big enough that decoding takes a few frames: the image must not be missing from the frame the answer follows.
    const canvas = new OffscreenCanvas(4000, 4000);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#00ff00';
    context.fillRect(0, 0, 4000, 4000);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    const photo = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsDataURL(blob);
    });
    const body = `<img src="${photo}" style="position: absolute; left: 220px; top: 0; width: 100px; height: 80px">${BLOCK}`;
    const el = await whenReady(mount({}, { srcdoc: composition(body) }));
    const frame = frameOf(el);
    for (const title of ['one', 'two']) {
      await updateVariables(el, { title });
      expect((await pixelsOf(el))(270, 40)).to.deep.equal(GREEN);
    }
    expect(frameOf(el)).to.equal(frame);
  });

  it('keeps the media elements on stage, loaded and on the frame at the playhead', async () => {
    // frames.webm: every frame a flat gray whose level says its index (see frames.test.ts).
    const video = `<video id="v" src="/test/fixtures/media/frames.webm" crossorigin="anonymous" data-start="0.5" muted style="position: absolute; left: 0; top: 0; width: 160px; height: 90px"></video>`;
    const el = await whenReady(mount({}, { srcdoc: composition(`${video}${BLOCK}`) }));
    await el.seek(1.2);
    const frame = frameOf(el);
    expect((await updateVariables(el, { title: 'Kept' })).reloading).to.equal(false);
    expect(await text(el)).to.equal('KEPT');
    expect(frameOf(el)).to.equal(frame);
    const media = await probe<{ currentTime: number; paused: boolean; readyState: number }>(el, {
      ask: 'media',
      selector: '#v',
    });
    expect(media.paused).to.equal(true);
    expect(media.readyState).to.be.at.least(2);
    expect(Math.abs(media.currentTime - 0.7)).to.be.at.most(1 / 30);
    const [red] = (await probe<number[]>(el, { ask: 'videoPixel', selector: '#v', x: 80, y: 45 }))!;
    expect(Math.round(red! / ((3 * 255) / 219))).to.equal(21);
  });

  it('hands the HyperFrames-named overrides (__hfVariables, __fxVariables) the new values', async () => {
    const el = await whenReady(mount({}, { srcdoc: composition(BLOCK) }));
    await updateVariables(el, { title: 'Injected' });
    expect(await probe(el, { ask: 'global', name: '__hfVariables' })).to.deep.equal({ title: 'Injected' });
    expect(await probe(el, { ask: 'global', name: '__fxVariables' })).to.deep.equal({ title: 'Injected' });
  });
});

describe('<fx-composition> reloads what cannot run again in place', () => {
  async function expectReload(body: string): Promise<void> {
    const uncaught = watchUncaught();
    const el = await whenReady(mount({}, { srcdoc: composition(body) }));
    await el.seek(1);
    const frame = frameOf(el);
    const errors: string[] = [];
    el.addEventListener('error', (event) => errors.push(JSON.stringify((event as CustomEvent).detail)));
    const detail = await updateVariables(el, { title: 'Reloaded' });
    expect(detail.reloading).to.equal(true);
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the reloaded frame');
    expect(await text(el)).to.equal('RELOADED');
    expect([el.currentTime, el.paused]).to.deep.equal([1, true]);
    expect(errors).to.deep.equal([]);
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  }
  const READS = `<p id="upper"></p><script>document.getElementById('upper').textContent = window.__fx.getVariables().title.toUpperCase();</script>`;

  it('media a script made (there is no element on stage to keep for it)', () =>
    expectReload(
      `${READS}<script>var made = document.createElement('video'); made.muted = true; made.src = '/test/fixtures/media/frames.webm'; document.getElementById('root').append(made);</script>`,
    ));

  it('media whose source a script changed (the element on stage plays something else)', () =>
    expectReload(
      `<video id="v" src="/test/fixtures/media/frames.webm" muted></video>${READS}<script>document.getElementById('v').setAttribute('src', '/test/fixtures/media/frames.webm#t=1');</script>`,
    ));

  it('a body with a fetched script (it would run after a paint of the half-built body)', () =>
    expectReload(`<script src="/test/fixtures/rerun/library.js"></script>${READS}`));

  it('a body whose earlier script declares a top-level const a later one may use', () =>
    expectReload(
      `<script>\nconst SHOUT = (text) => text.toUpperCase();\n</script><p id="upper"></p><script>document.getElementById('upper').textContent = SHOUT(window.__fx.getVariables().title);</script>`,
    ));

  it('a script that throws when it runs again: the rerun fails quietly and the reload shows the value', () =>
    expectReload(
      `<p id="upper"></p><script>if (window.ranOnce) throw new Error('runs once'); window.ranOnce = true; document.getElementById('upper').textContent = window.__fx.getVariables().title.toUpperCase();</script>`,
    ));

  it('a head script whose load listener builds from what a body script wrote (it would not run again)', async () => {
    const head = `<script>document.addEventListener('DOMContentLoaded', function () { var upper = document.getElementById('upper'); upper.dataset.built = upper.textContent; });</script>`;
    const el = await whenReady(
      mount({}, { srcdoc: compositionHtml({ duration: 3, variables: DECLARATIONS, head, body: READS }) }),
    );
    await el.seek(1);
    const frame = frameOf(el);
    expect((await updateVariables(el, { title: 'Built' })).reloading).to.equal(true);
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the reloaded frame');
    expect(await probe(el, { ask: 'attribute', selector: '#upper', name: 'data-built' })).to.equal('BUILT');
  });

  it('a window.onload (who assigned it is not known, so it may not run again)', () =>
    expectReload(`${READS}<script>window.onload = function () { document.body.dataset.loaded = 'yes'; };</script>`));

  it('a registered timeline that throws when the rerun lets go of it', () =>
    expectReload(
      `${READS}<script>window.__timelines = { main: { seek: function () { return this; }, pause: function () { return this; }, kill: function () { throw new Error('kept'); } } };</script>`,
    ));

  it('a read from a listener (no script to run again)', () =>
    expectReload(
      `<p id="upper"></p><script>document.addEventListener('DOMContentLoaded', function () { document.getElementById('upper').textContent = window.__fx.getVariables().title.toUpperCase(); });</script>`,
    ));
});
