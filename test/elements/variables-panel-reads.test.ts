import { expect } from '@open-wc/testing';
import type { DeclarationsChangeDetail } from '../../src/elements/panel/declaration-source.js';
import type { FxVariablesPanel } from '../../src/elements/panel/fx-variables-panel.js';
import { nextEvent, waitFor } from './helpers.js';
import { ALL_TYPES_BODY, inField, mountPair, partOf } from './variables-panel-helpers.js';

/**
 * What the running composition's scripts read (`<fx-composition>.variablesRead`) completes lint's answer: lint
 * cannot see a read it cannot spell out (`getVariables()['ex' + 'tra']`, a fetched script).
 */
const offered = (panel: FxVariablesPanel) =>
  [...panel.shadowRoot!.querySelectorAll<HTMLElement>('[part~="undeclared"] li')].map((item) => [
    item.dataset.id,
    item.querySelector('button')?.getAttribute('aria-label'),
  ]);
const hasBadge = (panel: FxVariablesPanel, id: string) => {
  try {
    inField(panel, id, '[part~="badge"]');
    return true;
  } catch {
    return false;
  }
};
/** A script reading `names` as lint cannot see them. */
const reading = (names: string[], delay?: number) => {
  const reads = names
    .map(
      (name) =>
        `v[${name
          .split('')
          .map((char) => `'${char}'`)
          .join(' + ')}];`,
    )
    .join(' ');
  const run = `const v = window.__fx.getVariables(); ${reads}`;
  return `<script>${delay === undefined ? run : `window.__fx.ready.then(() => setTimeout(() => { ${run} }, ${delay}));`}</script>`;
};

describe('<fx-variables-panel> script reads', () => {
  it('offers to declare an id only a script reads, as a string, in one click', async () => {
    const { panel } = await mountPair({ body: ALL_TYPES_BODY + reading(['headline']) });
    await waitFor(() => offered(panel).length > 0, 'the script read to be offered');
    expect(offered(panel)).to.deep.equal([['headline', 'Declare headline as string']]);
    const change = nextEvent<CustomEvent<DeclarationsChangeDetail>>(panel, 'declarationschange');
    partOf(panel, 'undeclared').querySelector<HTMLButtonElement>('li[data-id="headline"] button')!.click();
    expect((await change).detail.declarations.at(-1)).to.deep.equal({
      id: 'headline',
      type: 'string',
      label: 'headline',
      default: '',
    });
    await panel.updateComplete;
    expect(offered(panel)).to.deep.equal([]);
  });

  it('a declared id a script reads, even after ready, is not unused', async () => {
    const { panel } = await mountPair({ body: ALL_TYPES_BODY + reading(['extra'], 800) });
    expect(hasBadge(panel, 'extra')).to.equal(true);
    await waitFor(() => !hasBadge(panel, 'extra'), 'the later read to clear the badge');
    await panel.updateComplete;
    expect(offered(panel)).to.deep.equal([]);
    await expect(panel).to.be.accessible();
  });

  it('keeps lint’s type for an id a binding reads too', async () => {
    const { panel } = await mountPair({
      body: `${ALL_TYPES_BODY}<img data-var-src="hero" alt="">${reading(['hero'])}`,
    });
    await waitFor(() => panel.composition!.variablesRead.includes('hero'), 'the script read');
    await panel.updateComplete;
    expect(offered(panel)).to.deep.equal([['hero', 'Declare hero as image']]);
  });
});
