import { expect } from '@open-wc/testing';
import {
  compositionHtml,
  frameOf,
  mount,
  nextEvent,
  probe,
  probeUntil,
  sleep,
  track,
  waitFor,
  whenReady,
} from './helpers.js';

const TITLE = [{ id: 'title', type: 'string', label: 'Title', default: 'Hello' }];
const titled = (duration = 2, size = { width: 320, height: 180 }) =>
  compositionHtml({ duration, ...size, variables: TITLE, body: '<h1 id="title" data-var-text="title">Hello</h1>' });

describe('<fx-composition> many on one page', () => {
  it('are accessible together', async () => {
    const els = ['A', 'B'].map((title) => mount({ variables: JSON.stringify({ title }) }, { srcdoc: titled() }));
    await Promise.all(els.map((el) => whenReady(el)));
    for (const el of els) await expect(el).to.be.accessible();
  });

  it('each instance loads with its own values and plays on its own', async () => {
    const titles = ['First', 'Second', 'Third'];
    const els = titles.map((title) =>
      mount(
        { variables: JSON.stringify({ title }) },
        { srcdoc: titled(), style: 'display:block;width:160px;height:90px' },
      ),
    );
    await Promise.all(els.map((el) => whenReady(el)));
    expect(await Promise.all(els.map((el) => probe(el, { ask: 'text', selector: '#title' })))).to.deep.equal(titles);
    await els[1]!.play();
    await sleep(200);
    expect(els.map((el) => el.paused)).to.deep.equal([true, false, true]);
    expect(els[0]!.currentTime).to.equal(0);
    els[2]!.variables = { title: 'Changed' };
    await nextEvent(els[2]!, 'variableschange');
    expect(await Promise.all(els.map((el) => probe(el, { ask: 'text', selector: '#title' })))).to.deep.equal([
      'First',
      'Second',
      'Changed',
    ]);
  });
});

describe('<fx-composition loading="lazy">', () => {
  afterEach(() => window.scrollTo(0, 0));

  it('does not load until it nears the viewport', async () => {
    const spacer = track(document.body, Object.assign(document.createElement('div'), { style: 'height: 5000px' }));
    const el = mount({ loading: 'lazy' }, { srcdoc: titled() });
    await sleep(400);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect(el.ready).to.equal(false);
    const ready = nextEvent(el, 'ready');
    el.scrollIntoView();
    await ready;
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
    expect(spacer.isConnected).to.equal(true);
  });

  it('loads at once when visible', async () => {
    const el = mount({ loading: 'lazy' }, { srcdoc: titled() });
    await whenReady(el);
    expect(el.ready).to.equal(true);
  });
});

describe('<fx-composition> off screen', () => {
  it('pauses when scrolled out of view and resumes when back', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(30) }));
    await el.play();
    const paused = nextEvent(el, 'pause');
    el.style.cssText += ';position:fixed;left:0;top:-2000px';
    await paused;
    expect(el.paused).to.equal(true);
    expect(
      (await probeUntil<{ paused: boolean }>(el, { ask: 'runtime' }, (runtime) => runtime.paused)).paused,
    ).to.equal(true);
    const played = nextEvent(el, 'play');
    el.style.top = '0px';
    await played;
    expect(el.paused).to.equal(false);
  });

  it('does not resume a composition the user paused', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(30) }));
    await el.play();
    el.pause();
    el.style.cssText += ';position:fixed;left:0;top:-2000px';
    await sleep(200);
    el.style.top = '0px';
    await sleep(300);
    expect(el.paused).to.equal(true);
  });

  it('waits with autoplay until it is on screen', async () => {
    const el = mount(
      { autoplay: true },
      { srcdoc: titled(30), style: 'display:block;width:320px;height:180px;position:fixed;left:0;top:-2000px' },
    );
    await whenReady(el);
    await sleep(200);
    expect(el.paused).to.equal(true);
    const played = nextEvent(el, 'play');
    el.style.top = '0px';
    await played;
    expect(el.paused).to.equal(false);
  });
});

describe('<fx-composition> scaling', () => {
  const rectOf = (element: Element) => element.getBoundingClientRect();

  it('fits a wider box: full height, centred, aspect ratio kept', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(), style: 'display:block;width:640px;height:200px' }));
    const box = rectOf(el);
    const frame = rectOf(frameOf(el));
    expect(frame.height).to.be.closeTo(200, 0.01);
    expect(frame.width).to.be.closeTo((200 * 320) / 180, 0.01);
    expect(frame.left - box.left).to.be.closeTo((640 - frame.width) / 2, 0.01);
    expect(frame.top - box.top).to.be.closeTo(0, 0.01);
  });

  it('fits a taller box: full width, centred', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(), style: 'display:block;width:160px;height:400px' }));
    const frame = rectOf(frameOf(el));
    expect(frame.width).to.be.closeTo(160, 0.01);
    expect(frame.height).to.be.closeTo(90, 0.01);
    expect(frame.top - rectOf(el).top).to.be.closeTo((400 - 90) / 2, 0.01);
  });

  it('takes the composition’s aspect ratio when only a width is given', async () => {
    const el = await whenReady(
      mount({}, { srcdoc: titled(2, { width: 400, height: 400 }), style: 'display:block;width:300px' }),
    );
    expect(rectOf(el).height).to.equal(300);
    expect(rectOf(frameOf(el)).width).to.be.closeTo(300, 0.01);
  });

  it('renders the composition at its own size inside the frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(), style: 'display:block;width:640px;height:360px' }));
    expect(await probe(el, { ask: 'width', selector: '#root' })).to.equal(320);
    expect(rectOf(frameOf(el)).width).to.be.closeTo(640, 0.01);
  });

  it('re-fits when the box is resized', async () => {
    const el = await whenReady(mount({}, { srcdoc: titled(), style: 'display:block;width:320px;height:180px' }));
    el.style.width = '160px';
    el.style.height = '90px';
    await waitFor(() => Math.abs(rectOf(frameOf(el)).width - 160) < 0.01, 'the frame to shrink to 160 px');
    expect(rectOf(frameOf(el)).height).to.be.closeTo(90, 0.01);
  });
});

describe('<fx-composition> poster and loading states', () => {
  it('shows the poster and a loading status until ready', async () => {
    const el = mount({ poster: '/test/fixtures/basic/pic.svg' }, { srcdoc: titled() });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="poster"]')?.getAttribute('src')).to.equal(
      '/test/fixtures/basic/pic.svg',
    );
    expect(el.shadowRoot!.querySelector('[part="status"]')?.textContent).to.equal('Loading…');
    await whenReady(el);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="poster"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[part="status"]')).to.equal(null);
  });
});
