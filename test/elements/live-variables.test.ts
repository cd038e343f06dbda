import { expect } from '@open-wc/testing';
import type { FxVariablesChangeDetail } from '../../src/elements/internal/events.js';
import {
  compositionHtml,
  frameOf,
  mount,
  nextEvent,
  probe,
  recordEvents,
  sleep,
  waitFor,
  watchUncaught,
  updateVariables,
  whenReady,
} from './helpers.js';

const DECLARATIONS = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  { id: 'size', type: 'number', label: 'Size', default: 20, min: 10, max: 40 },
];
const BOUND =
  '<h1 id="title" data-var-text="title" style="color: var(--accent); font-size: calc(var(--size) * 1px)">Hello</h1>';
// No script reads values at load: updates apply in place.
const inPlace = () => compositionHtml({ duration: 3, variables: DECLARATIONS, body: BOUND });
// A top-level script reads values at load, with a library fetched in the body: the scripts cannot run again in
// place (rerun.test.ts has those), so updates need a reload that keeps the playhead.
const LIBRARY = '<script src="/test/fixtures/rerun/library.js"></script>';
const READ_AT_LOAD = `<p id="upper"></p>${LIBRARY}<script>document.getElementById('upper').textContent = shout(window.__fx.getVariables().title);</script>`;
const readsAtLoad = () => compositionHtml({ duration: 3, variables: DECLARATIONS, body: `${BOUND}${READ_AT_LOAD}` });

const readsAtLoad5 = compositionHtml({
  duration: 5,
  variables: [{ id: 'title', type: 'string', label: 'Title', default: 'Hello' }],
  body: READ_AT_LOAD,
});

const RELOAD_SETTLE_MS = 400; // past the element's reload debounce

describe('<fx-composition> live variables', () => {
  it('is accessible with an issue hint showing', async () => {
    const el = await whenReady(mount({ controls: true }, { srcdoc: inPlace() }));
    await updateVariables(el, { accent: 'red' });
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });

  it('re-applies text and CSS in place: same frame, playhead and paused state kept', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    await el.seek(1.5);
    const frame = frameOf(el);
    const seen = recordEvents(el, ['ready', 'loadedmetadata', 'seeked']);
    const detail = await updateVariables(el, { title: 'Updated', accent: '#00ff00', size: 30 });
    expect(detail.values).to.deep.equal({ title: 'Updated', accent: '#00ff00', size: 30 });
    expect(detail.issues).to.deep.equal([]);
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Updated');
    expect(await probe(el, { ask: 'style', selector: '#title', property: 'color' })).to.equal('rgb(0, 255, 0)');
    expect(await probe(el, { ask: 'style', selector: '#title', property: 'font-size' })).to.equal('30px');
    await sleep(RELOAD_SETTLE_MS);
    expect(frameOf(el) === frame, 'the same frame').to.equal(true);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    expect(el.currentTime).to.equal(1.5);
    expect(el.paused).to.equal(true);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ currentTime: 1.5, paused: true });
    expect(seen).to.deep.equal([]);
  });

  it('keeps playing through an in-place update', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    const frame = frameOf(el);
    await el.play();
    await sleep(200);
    const before = el.currentTime;
    await updateVariables(el, { title: 'While playing' });
    await sleep(200);
    expect(el.paused).to.equal(false);
    expect(el.currentTime).to.be.greaterThan(before);
    expect(frameOf(el) === frame, 'the same frame').to.equal(true);
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('While playing');
  });

  it('restores a default when an override is removed', async () => {
    const el = await whenReady(mount({ variables: '{"title":"Set"}' }, { srcdoc: inPlace() }));
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Set');
    await updateVariables(el, {});
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
  });

  it('updates from the attribute too', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    const change = nextEvent<CustomEvent<FxVariablesChangeDetail>>(el, 'variableschange');
    el.setAttribute('variables', '{"title":"Attr"}');
    expect((await change).detail.values.title).to.equal('Attr');
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Attr');
  });

  it('reloads a composition whose script read values at load, keeping the playhead and paused state', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad() }));
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('HELLO');
    await el.seek(1.5);
    const frame = frameOf(el);
    const seen = recordEvents(el, ['loadedmetadata', 'durationchange', 'ready']);
    await updateVariables(el, { title: 'again' });
    // Bindings first, in place; then the reload swaps the frame.
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the reloaded frame');
    expect(seen).to.deep.equal(['ready']);
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('AGAIN');
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('again');
    expect(el.currentTime).to.equal(1.5);
    expect(el.paused).to.equal(true);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ currentTime: 1.5, paused: true });
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
  });

  it('reloads while playing and keeps playing from about where it was', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad() }));
    const frame = frameOf(el);
    await el.play();
    await sleep(300);
    await updateVariables(el, { title: 'playing' });
    const before = el.currentTime;
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the reloaded frame');
    await sleep(150);
    expect(el.paused).to.equal(false);
    expect(el.currentTime).to.be.greaterThan(before);
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('PLAYING');
  });

  it('a pause and a seek made while a hidden reload runs survive the swap (issue 9, item 5)', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad5 }));
    const frame = frameOf(el);
    await el.play();
    await sleep(300);
    const change = nextEvent(el, 'variableschange');
    el.variables = { title: 'edited' };
    await change;
    await waitFor(() => el.shadowRoot!.querySelector('iframe.incoming'), 'the reload to start');
    el.pause();
    expect(await el.seek(3)).to.equal(3);
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the swap', 15000);
    await sleep(300);
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('EDITED');
    expect([el.paused, el.currentTime]).to.deep.equal([true, 3]);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ paused: true, currentTime: 3 });
  });

  it('a reload made while paused swaps in quickly: its hidden frame still paints, so the pre-swap seek does not wait for a timeout', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad() }));
    await el.seek(1);
    const frame = frameOf(el);
    await updateVariables(el, { title: 'quick' });
    const started = performance.now();
    await waitFor(() => frameOf(el) !== frame && el.ready, 'the swap');
    expect(performance.now() - started).to.be.below(1500);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ paused: true, currentTime: 1 });
  });

  it('coalesces a burst of updates into one reload with the last values', async () => {
    const el = await whenReady(mount({}, { srcdoc: readsAtLoad() }));
    let readies = 0;
    el.addEventListener('ready', () => (readies += 1));
    // Set back to back, as typing does: the answers all land within the reload's debounce, even on a busy machine
    // (awaited one by one, each takes two frames and a round trip, which a loaded machine can stretch past it).
    for (const title of ['a', 'ab', 'abc']) el.variables = { title };
    await waitFor(() => readies > 0, 'the reload');
    await sleep(RELOAD_SETTLE_MS);
    expect(readies).to.equal(1);
    expect(await probe(el, { ask: 'text', selector: '#upper' })).to.equal('ABC');
  });

  it('does not reload when only a sub-composition script read its values (overrides never reach it)', async () => {
    const el = await whenReady(mount({ src: '/test/fixtures/basic/index.html' }));
    const frame = frameOf(el);
    await updateVariables(el, { title: 'No reload' });
    await sleep(RELOAD_SETTLE_MS);
    expect(frameOf(el) === frame, 'the same frame').to.equal(true);
  });
});

describe('<fx-composition> invalid variable values', () => {
  it('reports a type mismatch as an issue, keeps the default, never throws', async () => {
    const uncaught = watchUncaught();
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    const detail = await updateVariables(el, { title: 42, accent: 'red' });
    uncaught.stop();
    expect(detail.issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['type-mismatch', ['overrides', 'title']],
      ['type-mismatch', ['overrides', 'accent']],
    ]);
    expect(detail.values).to.deep.include({ title: 'Hello', accent: '#ff0000' });
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
    expect(await probe(el, { ask: 'style', selector: '#title', property: 'color' })).to.equal('rgb(255, 0, 0)');
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('clamps an out-of-range number into its declared range, with a warning (as the renderer does)', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    const detail = await updateVariables(el, { size: 100 });
    expect(detail.issues.map((found) => [found.code, found.severity])).to.deep.equal([['out-of-range', 'warning']]);
    expect(detail.values).to.deep.include({ size: 40 });
    expect(await probe(el, { ask: 'style', selector: '#title', property: 'font-size' })).to.equal('40px');
  });

  it('refuses CSS-breaking characters in a value applied as a custom property', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    await updateVariables(el, { title: 'a;} body{display:none' });
    expect(await probe(el, { ask: 'style', selector: 'body', property: 'display' })).to.equal('block');
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('a;} body{display:none');
  });

  it('shows a visible hint in controls mode, and hides it once values are valid', async () => {
    const el = await whenReady(mount({ controls: true }, { srcdoc: inPlace() }));
    expect(el.shadowRoot!.querySelector('[part="issues"]')).to.equal(null);
    await updateVariables(el, { accent: 'red' });
    await el.updateComplete;
    const hint = el.shadowRoot!.querySelector<HTMLElement>('[part="issues"]')!;
    expect(hint.textContent!.replace(/\s+/g, ' ').trim()).to.equal('⚠ 1 variable issue');
    expect(hint.title).to.include('"accent"');
    const box = hint.getBoundingClientRect();
    expect(box.width).to.be.greaterThan(0);
    expect(getComputedStyle(hint).visibility).to.equal('visible');
    await updateVariables(el, { accent: '#00ff00' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="issues"]')).to.equal(null);
  });

  it('shows no hint without controls', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    await updateVariables(el, { accent: 'red' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="issues"]')).to.equal(null);
  });
});

describe('<fx-composition> variables set again and again (issue 9, item 3)', () => {
  /** Counts what reaches the frame: every `set-variables` the host posts on the element's ports. */
  function countPosts(): { readonly count: number; stop(): void } {
    const original = MessagePort.prototype.postMessage;
    const counter = { count: 0, stop: () => (MessagePort.prototype.postMessage = original) };
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: unknown[]) {
      if ((message as { type?: string } | null)?.type === 'set-variables') counter.count++;
      return (original as (...args: unknown[]) => void).call(this, message, ...rest);
    };
    return counter;
  }

  it('a new object with equal values (a re-render) posts nothing and fires no variableschange', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    await updateVariables(el, { title: 'Same', size: 30, list: [1, { a: 'b' }] });
    const seen = recordEvents(el, ['variableschange', 'error']);
    const posts = countPosts();
    try {
      for (let i = 0; i < 50; i++) {
        el.variables = { size: 30, title: 'Same', list: [1, { a: 'b' }] };
        await el.updateComplete;
      }
      await sleep(RELOAD_SETTLE_MS);
    } finally {
      posts.stop();
    }
    expect([posts.count, seen]).to.deep.equal([0, []]);
    // A change by content still goes through.
    expect((await updateVariables(el, { title: 'Other', size: 30, list: [1, { a: 'c' }] })).values).to.deep.include({
      title: 'Other',
    });
  });

  for (const empty of [null, undefined, '']) {
    it(`${JSON.stringify(empty) ?? 'undefined'} resets to the declared defaults`, async () => {
      const el = await whenReady(mount({}, { srcdoc: inPlace() }));
      await updateVariables(el, { title: 'Set' });
      const uncaught = watchUncaught();
      const detail = await updateVariables(el, empty as unknown as Record<string, unknown>);
      uncaught.stop();
      expect(uncaught.errors).to.deep.equal([]);
      expect(el.variables).to.deep.equal({});
      expect(detail.values).to.deep.include({ title: 'Hello' });
      expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Hello');
    });
  }

  it('a JSON string is parsed as the attribute is', async () => {
    const el = await whenReady(mount({}, { srcdoc: inPlace() }));
    const detail = await updateVariables(el, '{"title":"From a string"}' as unknown as Record<string, unknown>);
    expect(el.variables).to.deep.equal({ title: 'From a string' });
    expect(detail.values).to.deep.include({ title: 'From a string' });
  });

  for (const [name, input] of [
    ['a number', 42],
    ['an array', [1]],
    ['a string that is no object', '"text"'],
    ['bad JSON', '{oops'],
  ] as const) {
    it(`${name} is refused with "variables_json_invalid", keeping the values in effect`, async () => {
      const el = await whenReady(mount({}, { srcdoc: inPlace() }));
      await updateVariables(el, { title: 'Kept' });
      const uncaught = watchUncaught();
      const error = nextEvent<CustomEvent<{ code: string }>>(el, 'error');
      el.variables = input as unknown as Record<string, unknown>;
      expect((await error).detail.code).to.equal('variables_json_invalid');
      uncaught.stop();
      expect(uncaught.errors).to.deep.equal([]);
      expect(el.variables).to.deep.equal({ title: 'Kept' });
      expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Kept');
    });
  }
});
