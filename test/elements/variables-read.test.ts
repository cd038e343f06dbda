import { expect } from '@open-wc/testing';
import { SCRIPT_READS } from '../../src/runtime/protocol/messages.js';
import { compositionHtml, mount, nextEvent, probe, sleep, waitFor, whenReady } from './helpers.js';

/**
 * `<fx-composition>.variablesRead`: the top-level ids the composition's scripts read through `getVariables()` (or
 * HyperFrames' `__hyperframes.getVariables()`), at load and later, reported by the frame.
 */
describe('<fx-composition> variablesRead', () => {
  const variables = [
    { id: 'title', type: 'string', label: 'Title', default: 'Hello' },
    { id: 'size', type: 'number', label: 'Size', default: 20 },
  ];
  const withScript = (script: string) =>
    mount({}, { srcdoc: compositionHtml({ variables, body: `<p id="out"></p><script>${script}</script>` }) });
  const readsOf = async (script: string, expected: string[]) => {
    const el = await whenReady(withScript(script));
    await waitFor(() => el.variablesRead.length >= expected.length, `reads ${expected.join(', ')}`);
    return el.variablesRead;
  };

  const cases: [string, string, string[]][] = [
    ['a property', 'window.__fx.getVariables().later;', ['later']],
    ['destructuring', 'const { size, missing } = window.__fx.getVariables();', ['size', 'missing']],
    ['`in`', `'flag' in window.__fx.getVariables();`, ['flag']],
    ['Object.keys', 'Object.keys(window.__fx.getVariables());', ['title', 'size']],
    ['the HyperFrames alias', 'window.__hyperframes.getVariables().hf;', ['hf']],
  ];
  for (const [how, script, expected] of cases) {
    it(`reports ids read through ${how}`, async () => {
      expect(await readsOf(script, expected)).to.deep.equal(expected);
    });
  }

  it('is empty when no script reads values; reads after ready count too, with a variablesread event', async () => {
    const el = await whenReady(
      withScript(`window.__fx.ready.then(() => setTimeout(() => window.__fx.getVariables().late, 300));`),
    );
    expect(el.variablesRead).to.deep.equal([]);
    await nextEvent(el, 'variablesread');
    expect(el.variablesRead).to.deep.equal(['late']);
  });

  it('reads of sub-composition instances are of their own declarations, not reported', async () => {
    // Each card instance reads its `name`; the top level reads nothing.
    const el = await whenReady(mount({ src: '/test/fixtures/basic/index.html' }));
    await sleep(SCRIPT_READS.intervalMs * 3);
    expect(el.variablesRead).to.deep.equal([]);
  });

  it('scripts see the values as a plain object: JSON, keys, spread, prototype, frozen-ness, writes', async () => {
    const script = `const v = window.__fx.getVariables(), plain = { title: 'Hello', size: 20 };
      const same = JSON.stringify(v) === JSON.stringify(plain) && Object.keys(v).join() === Object.keys(plain).join()
        && JSON.stringify({ ...v }) === JSON.stringify(plain) && Object.getPrototypeOf(v) === Object.prototype
        && !Object.isFrozen(v) && (v.title = 'x', v.title === 'x') && window.__fx.getVariables().title === 'Hello'
        && Object.entries(window.__fx.getVariables()).length === 2;
      document.getElementById('out').textContent = String(same);`;
    const el = await whenReady(withScript(script));
    expect(await probe(el, { ask: 'text', selector: '#out' })).to.equal('true');
  });
});
