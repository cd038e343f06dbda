import { expect } from '@open-wc/testing';
import type { FxVariablesChangeDetail } from '../../src/elements/internal/events.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { compositionHtml, mount, nextEvent, probe, sleep, waitFor, whenReady } from './helpers.js';

// Values set while a load is under way (an app filling them from a fetch, a framework hydrating its SSR output):
// the frame on stage at `ready` shows the values in effect then, whatever moment they were set at.
const DECLARATIONS = [
  { id: 'title', type: 'string', label: 'Title', default: 'Default' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
];
const BOUND = '<h1 id="title" data-var-text="title" style="color: var(--accent)">Default</h1>';
// The frame's load takes at least this long (a script it waits for), so a set at a given moment is during it.
const slow = () => `<script src="/test/fixtures/slow/400.js?${Math.random()}"></script>`;
const inPlace = () => compositionHtml({ duration: 3, variables: DECLARATIONS, body: `${BOUND}${slow()}` });
// A script reads values at load, after a library fetched in the body: a change needs the scripts run again.
const READ_AT_LOAD = `<p id="upper"></p><script src="/test/fixtures/rerun/library.js"></script><script>document.getElementById('upper').textContent = shout(window.__fx.getVariables().title);</script>`;
const readsAtLoad = () =>
  compositionHtml({ duration: 3, variables: DECLARATIONS, body: `${BOUND}${READ_AT_LOAD}${slow()}` });

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const shadowFrame = (el: FxComposition, selector = 'iframe') => el.shadowRoot?.querySelector(selector);

/** Mounts and resolves with the `variableschange` that comes with `ready`, after `during` ran while loading. */
async function loadWith(
  srcdoc: string,
  during: (el: FxComposition) => Promise<void>,
): Promise<{ el: FxComposition; detail: FxVariablesChangeDetail }> {
  const el = mount({}, { srcdoc });
  const change = new Promise<FxVariablesChangeDetail>((resolve) =>
    el.addEventListener('ready', () =>
      el.addEventListener('variableschange', (event) => resolve(event.detail), { once: true }),
    ),
  );
  await during(el);
  expect(el.ready, 'set before ready').to.equal(false);
  await whenReady(el);
  return { el, detail: await change };
}

const title = (el: FxComposition) => probe(el, { ask: 'text', selector: '#title' });
const color = (el: FxComposition) => probe(el, { ask: 'style', selector: '#title', property: 'color' });

describe('<fx-composition> values set while it loads', () => {
  it('one animation frame after connection (while compiling)', async () => {
    const { el, detail } = await loadWith(inPlace(), async (el) => {
      await nextFrame();
      el.variables = { title: 'After a frame' };
    });
    expect(await title(el)).to.equal('After a frame');
    expect(detail.values.title).to.equal('After a frame');
  });

  it('50 ms after the load started', async () => {
    const { el, detail } = await loadWith(inPlace(), async (el) => {
      await sleep(50);
      el.variables = { title: 'Fetched', accent: '#00ff00' };
    });
    expect(await title(el)).to.equal('Fetched');
    expect(await color(el)).to.equal('rgb(0, 255, 0)');
    expect(detail.values).to.deep.equal({ title: 'Fetched', accent: '#00ff00' });
  });

  it('while the frame loads (mounted, not ready)', async () => {
    const { el, detail } = await loadWith(inPlace(), async (el) => {
      await waitFor(() => shadowFrame(el), 'the frame mounted');
      el.variables = { title: 'Frame loading' };
    });
    expect(await title(el)).to.equal('Frame loading');
    expect(detail.values.title).to.equal('Frame loading');
  });

  it('through the attribute while the frame loads', async () => {
    const { el } = await loadWith(inPlace(), async (el) => {
      await waitFor(() => shadowFrame(el), 'the frame mounted');
      el.setAttribute('variables', '{"title":"Attribute"}');
    });
    expect(await title(el)).to.equal('Attribute');
  });

  it('several times in a row: the last wins', async () => {
    const { el, detail } = await loadWith(inPlace(), async (el) => {
      el.variables = { title: 'First' };
      await nextFrame();
      el.variables = { title: 'Second' };
      await waitFor(() => shadowFrame(el), 'the frame mounted');
      el.variables = { title: 'Third' };
      await Promise.resolve();
      el.variables = { title: 'Last', accent: '#0000ff' };
    });
    expect(await title(el)).to.equal('Last');
    expect(await color(el)).to.equal('rgb(0, 0, 255)');
    expect(detail.values).to.deep.equal({ title: 'Last', accent: '#0000ff' });
  });

  it('back to the values the load started with', async () => {
    const { el, detail } = await loadWith(inPlace(), async (el) => {
      await waitFor(() => shadowFrame(el), 'the frame mounted');
      el.variables = { title: 'Gone' };
      await nextFrame();
      el.variables = {};
    });
    expect(await title(el)).to.equal('Default');
    expect(detail.values.title).to.equal('Default');
  });

  it('in a composition whose scripts read values at load, while the frame loads', async () => {
    const { el, detail } = await loadWith(readsAtLoad(), async (el) => {
      await waitFor(() => shadowFrame(el), 'the frame mounted');
      el.variables = { title: 'scripts' };
    });
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('SCRIPTS');
    expect(await title(el)).to.equal('scripts');
    expect(detail.values.title).to.equal('scripts');
  });

  it('during a reload of such a composition: the frame on stage at the next `ready` shows the latest', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad() }));
    el.variables = { title: 'first' };
    await waitFor(() => shadowFrame(el, 'iframe.incoming'), 'the reload under way');
    el.variables = { title: 'second' };
    await Promise.resolve();
    el.variables = { title: 'latest' };
    await nextEvent(el, 'ready');
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('LATEST');
    expect(await title(el)).to.equal('latest');
    // Nothing later takes it back (a stale reload, a late answer), and no reload is left to run.
    await sleep(800);
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('LATEST');
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
  });
});
