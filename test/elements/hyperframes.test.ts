// A composition written for HyperFrames (test/fixtures/hyperframes, our own block-shaped fixture) reads its values
// once, at load, through window.__hyperframes: an override must show, with the playhead and paused state kept.
import { expect } from '@open-wc/testing';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { ask, frameOf, mount, nextEvent, probe, waitFor, watchUncaught, whenReady } from './helpers.js';

const FIXTURE = '/test/fixtures/hyperframes/';

/** Sets `values` at `seconds` and waits until the block shows `shown` (its scripts run again in place, or reloaded). */
async function overrideAt(
  el: FxComposition,
  seconds: number,
  values: Record<string, unknown>,
  shown: string,
): Promise<void> {
  await el.seek(seconds);
  const change = nextEvent(el, 'variableschange');
  el.variables = values;
  await change;
  // A frame swapped out while asked does not answer: ask the next one.
  const headline = () =>
    ask(frameOf(el).contentWindow!, { ask: 'text', selector: '#headline' }, 500).catch(() => undefined);
  await waitFor(async () => el.ready && (await headline()) === shown, `the block showing ${shown}`);
}

describe('<fx-composition> with a HyperFrames-style block', () => {
  it('reads the declarations (extra "role" and "description" kept) and the defaults through __hyperframes', async () => {
    const uncaught = watchUncaught();
    const el = await whenReady(mount({ src: `${FIXTURE}index.html` }));
    expect(el.duration).to.equal(3);
    expect(
      el.declarations.map((declaration) => [declaration.id, declaration.role, declaration.description]),
    ).to.deep.equal([
      ['title', 'content', 'Headline, read at load.'],
      ['accent', 'style', 'Bar colour.'],
    ]);
    expect(await probe(el, { ask: 'text', selector: '#headline' })).to.equal('BLOCK DEFAULT');
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('shows an override read at load, keeping the playhead and paused state', async () => {
    const el = await whenReady(mount({ src: `${FIXTURE}index.html` }));
    await overrideAt(el, 1.5, { title: 'Override shown' }, 'OVERRIDE SHOWN');
    expect(el.currentTime).to.equal(1.5);
    expect(el.paused).to.equal(true);
    expect(await probe(el, { ask: 'runtime' })).to.deep.include({ currentTime: 1.5, paused: true });
  });

  it('folds the changes made during a reload into one more reload: the last value shows, the playhead kept', async () => {
    const el = await whenReady(mount({ src: `${FIXTURE}with-module.html` }));
    await el.seek(1);
    const frames: Node[] = [];
    let reloadStarted!: () => void;
    const firstReload = new Promise<void>((resolve) => (reloadStarted = resolve));
    const watcher = new MutationObserver((records) => {
      records.forEach((record) => frames.push(...[...record.addedNodes].filter((node) => node.nodeName === 'IFRAME')));
      if (frames.length > 0) reloadStarted();
    });
    watcher.observe(el.shadowRoot!, { childList: true, subtree: true });
    el.variables = { title: 'One' };
    // The next three while the reload's frame loads (it cannot be ready in the task that added it): a slow engine's
    // reload may otherwise end between two awaited sets, and the set after it rightly starts a reload of its own.
    await firstReload;
    for (const title of ['Two', 'Three', 'Four']) el.variables = { title };
    // A frame swapped out while asked does not answer: ask the next one.
    const headline = () =>
      ask(frameOf(el).contentWindow!, { ask: 'text', selector: '#headline' }, 500).catch(() => undefined);
    await waitFor(async () => (await headline()) === 'FOUR', 'the last value');
    watcher.disconnect();
    expect(frames.length).to.be.within(1, 2);
    expect(el.currentTime).to.equal(1);
  });

  it('reads object-form declarations (key as id and label) and shows an override of them', async () => {
    const el = await whenReady(mount({ src: `${FIXTURE}object-form.html` }));
    expect(el.declarations.map((declaration) => [declaration.id, declaration.label])).to.deep.equal([
      ['title', 'title'],
      ['accent', 'Accent'],
    ]);
    await overrideAt(el, 2, { title: 'Object form' }, 'OBJECT FORM');
    expect(el.currentTime).to.equal(2);
  });

  it('with data-fx-compat="none" the block sees no __hyperframes and falls back to its own value', async () => {
    const el = await whenReady(
      mount({ src: `${FIXTURE}compat-none.html`, variables: JSON.stringify({ title: 'Not read' }) }),
    );
    expect(await probe(el, { ask: 'text', selector: '#headline' })).to.equal('SCRIPT FALLBACK');
    expect(await probe(el, { ask: 'global', name: '__hyperframes' })).to.equal(undefined);
  });
});
