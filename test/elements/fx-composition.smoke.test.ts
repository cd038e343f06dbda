import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/elements/composition/define.js';
import { FxComposition } from '../../src/elements/composition/fx-composition.js';

FxComposition.runtimeUrl = new URL('/dist/fx-runtime.js', location.href).href;

describe('<fx-composition> smoke', () => {
  it('loads, becomes ready and reports duration', async () => {
    const el = await fixture<FxComposition>(
      html`<fx-composition src="/test/fixtures/basic/index.html" style="width:320px"></fx-composition>`,
    );
    await oneEvent(el, 'ready');
    expect(el.duration).to.equal(4);
    expect(el.declarations.map((d) => d.id)).to.deep.equal(['title', 'accent', 'logo']);
    const t = await el.seek(1.01);
    expect(t).to.be.closeTo(1, 0.04);
  });
});
