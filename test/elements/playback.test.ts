import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { compositionHtml, mount, nextEvent, probe, recordEvents, sleep, watchUncaught, whenReady } from './helpers.js';

const FPS = 30;
const TITLE = [{ id: 'title', type: 'string', label: 'Title', default: 'Hello' }];
const titled = (duration = 2) =>
  compositionHtml({ duration, variables: TITLE, body: '<h1 id="title" data-var-text="title">Hello</h1>' });

describe('<fx-composition> loading and events', () => {
  it('is accessible once ready', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled() }));
    await expect(el).to.be.accessible();
  });

  it('is accessible with controls', async () => {
    const el = await whenReady(mount({ controls: true }, { srcdoc: titled() }));
    await expect(el).to.be.accessible();
  });

  it('fires loadedmetadata, durationchange, ready, variableschange in that order', async () => {
    const el = mount({}, { srcdoc: titled(2.5) });
    const seen = recordEvents(el, ['loadedmetadata', 'durationchange', 'ready', 'variableschange', 'error']);
    await nextEvent(el, 'ready');
    await sleep(0);
    expect(seen).to.deep.equal(['loadedmetadata', 'durationchange', 'ready', 'variableschange']);
    expect(el.duration).to.equal(2.5);
    expect(el.ready).to.equal(true);
    expect(el.paused).to.equal(true);
    expect(el.currentTime).to.equal(0);
  });

  it('reports NaN duration and not ready before loading', () => {
    const el = mount({});
    expect(el.duration).to.be.NaN;
    expect(el.ready).to.equal(false);
  });

  it('keeps the root duration read at compile time when a script rewrites it', async () => {
    const rewrites = compositionHtml({
      duration: 2,
      body: `<script>document.getElementById('root').setAttribute('data-duration', '10');</script>`,
    });
    const el = await whenReady(mount({}, { srcdoc: rewrites }));
    expect(el.duration).to.equal(2);
    expect(await probe(el, { ask: 'attribute', selector: '#root', name: 'data-duration' })).to.equal('10');
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ duration: 2 });
    expect(await el.seek(5)).to.equal(2);
  });

  it('loads the new composition when src changes, announcing the new duration', async () => {
    const el = await whenReady(mount({ src: '/test/fixtures/basic/index.html' }));
    expect(el.duration).to.equal(4);
    const seen = recordEvents(el, ['loadedmetadata', 'durationchange', 'ready']);
    el.src = '/test/fixtures/precedence/index.html';
    await nextEvent(el, 'ready');
    expect(seen).to.deep.equal(['loadedmetadata', 'durationchange', 'ready']);
    expect(el.duration).to.equal(2);
    expect(el.currentTime).to.equal(0);
  });

  it('a load replaced before it got ready goes no further: one ready, one frame, the newer composition', async () => {
    const el = mount({}, { srcdoc: titled(3) });
    const seen = recordEvents(el, ['loadedmetadata', 'ready', 'error']);
    await el.updateComplete;
    el.srcdoc = titled(2);
    await nextEvent(el, 'ready');
    await sleep(300);
    expect(seen).to.deep.equal(['loadedmetadata', 'ready']);
    expect(el.duration).to.equal(2);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
  });

  it('loads again when moved to another place in the page', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled() }));
    const box = document.createElement('div');
    document.body.append(box);
    const ready = nextEvent(el, 'ready');
    box.append(el);
    await ready;
    expect(el.ready).to.equal(true);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    box.remove();
  });

  it('exposes declarations and metadata of the entry', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled() }));
    expect(el.declarations.map((declaration) => declaration.id)).to.deep.equal(['title']);
    expect(el.metadata?.id).to.equal('main');
    expect([el.metadata?.width, el.metadata?.height, el.metadata?.duration]).to.deep.equal([320, 180, 2]);
  });
});

describe('<fx-composition> playback', () => {
  it('plays, reports time updates, ends paused at the duration', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(0.4) }));
    const seen = recordEvents(el, ['play', 'pause', 'ended']);
    const times: number[] = [];
    el.addEventListener('timeupdate', () => times.push(el.currentTime));
    const ended = nextEvent(el, 'ended');
    await el.play();
    expect(el.paused).to.equal(false);
    await ended;
    expect(seen).to.deep.equal(['play', 'pause', 'ended']);
    expect(el.paused).to.equal(true);
    expect(el.ended).to.equal(true);
    expect(el.currentTime).to.equal(0.4);
    expect(times.length).to.be.at.least(2);
    expect(times.every((time, index) => index === 0 || time >= times[index - 1]!)).to.equal(true);
  });

  it('pauses where it is and the frame agrees', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(5) }));
    await el.play();
    await sleep(300);
    const paused = nextEvent(el, 'pause');
    el.pause();
    await paused;
    await sleep(100);
    const inside = await probe<{ currentTime: number; paused: boolean }>(el, { ask: 'runtime' });
    expect(el.paused).to.equal(true);
    expect(inside.paused).to.equal(true);
    // Wall-clock bound only loosely: a loaded machine delays animation frames.
    expect(el.currentTime).to.be.within(0.05, 1.5);
    expect(inside.currentTime).to.be.closeTo(el.currentTime, 1 / FPS);
  });

  it('starts again from 0 when played after the end', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(0.3) }));
    const ended = nextEvent(el, 'ended');
    await el.play();
    await ended;
    const update = nextEvent(el, 'timeupdate');
    await el.play();
    await update;
    expect(el.currentTime).to.be.lessThan(0.3);
    el.pause();
  });

  it('plays on its own with autoplay', async () => {
    const el = mount({ autoplay: true }, { srcdoc: titled(5) });
    await nextEvent(el, 'play');
    expect(el.paused).to.equal(false);
  });

  it('loops with loop: no ended event, time wraps', async () => {
    const el = await whenReady(mount({ loop: true }, { srcdoc: titled(0.3) }));
    const seen = recordEvents(el, ['ended']);
    let wrapped = false;
    let last = 0;
    el.addEventListener('timeupdate', () => {
      if (el.currentTime < last) wrapped = true;
      last = el.currentTime;
    });
    await el.play();
    await sleep(800);
    expect(wrapped).to.equal(true);
    expect(seen).to.deep.equal([]);
    expect(el.paused).to.equal(false);
  });
});

describe('<fx-composition> seeking', () => {
  const cases: [request: number, landed: number][] = [
    [1.01, 1],
    [0.52, 16 / FPS],
    [1 / FPS, 1 / FPS],
    [99, 2],
    [-1, 0],
    [Number.NaN, 0],
  ];
  for (const [request, landed] of cases) {
    it(`seek(${request}) resolves with the frame time ${landed.toFixed(4)}`, async () => {
      const el = await whenReady(mount({}, { srcdoc: titled(2) }));
      const seeked = nextEvent(el, 'seeked');
      expect(await el.seek(request)).to.equal(landed);
      await seeked;
      expect(el.currentTime).to.equal(landed);
      expect((await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime).to.equal(landed);
    });
  }

  it('seeks when currentTime is set', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(2) }));
    const seeked = nextEvent(el, 'seeked');
    el.currentTime = 0.5;
    await seeked;
    expect(el.currentTime).to.equal(0.5);
    expect((await probe<{ currentTime: number }>(el, { ask: 'runtime' })).currentTime).to.equal(0.5);
  });

  it('waits for readiness when seeking before the composition loaded', async () => {
    const el = mount({}, { srcdoc: titled(2) });
    expect(await el.seek(1.5)).to.equal(1.5);
    expect(el.currentTime).to.equal(1.5);
  });
});

describe('<fx-composition> variables attribute and property', () => {
  it('applies the JSON attribute as overrides', async () => {
    const el = await whenReady(mount({ variables: '{"title":"From attribute"}' }, { srcdoc: titled() }));
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('From attribute');
  });

  it('applies an object property', async () => {
    const el = mount({}, { srcdoc: titled() });
    el.variables = { title: 'From property' };
    await whenReady(el);
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('From property');
  });

  const invalid = ['{oops', '[1, 2]', '"text"', '42', 'null'];
  for (const json of invalid) {
    it(`an attribute ${JSON.stringify(json)} raises "variables_json_invalid" when set later`, async () => {
      const el = await whenReady(mount({}, { srcdoc: titled() }));
      const uncaught = watchUncaught();
      const error = nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
      el.setAttribute('variables', json);
      expect((await error).detail.code).to.equal('variables_json_invalid');
      await sleep(50);
      uncaught.stop();
      expect(uncaught.errors).to.deep.equal([]);
      expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
    });
  }

  it('an invalid attribute at mount raises "variables_json_invalid" and still loads with defaults', async () => {
    const uncaught = watchUncaught();
    const el = mount({ variables: '{oops' }, { srcdoc: titled() });
    const error = nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    await whenReady(el);
    expect((await error).detail.code).to.equal('variables_json_invalid');
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
  });
});
