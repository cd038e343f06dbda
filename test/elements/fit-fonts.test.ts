import { expect } from '@open-wc/testing';
import { compositionHtml, mount, nextEvent, probe, probeUntil, whenReady } from './helpers.js';

// "W" in FxWide is 3 em wide; a fallback face is far narrower. Eight of them at 20 px: 480 px in FxWide, so the
// 300 px box fits them at 12.5 px — but at 20 px in any fallback.
const FONT_URL = '/test/fixtures/no-cors/fx-wide.ttf';
const TEXT = 'W'.repeat(8);
const FITTED_PX = 300 / (TEXT.length * 3);
const BOX = 'position:absolute;left:10px;top:10px;width:300px;height:60px;margin:0;white-space:nowrap;line-height:1';

describe('data-var-fit and fonts that load later', () => {
  it('fits text in the face its stylesheet loads, by the first frame', async () => {
    const el = await whenReady(
      mount(
        {},
        {
          srcdoc: compositionHtml({
            variables: [{ id: 'title', type: 'string', label: 'Title', default: TEXT }],
            head: `<style>@font-face { font-family: FxWide; src: url("${FONT_URL}") format("truetype"); }</style>`,
            body: `<h1 id="title" data-var-text="title" data-var-fit="shrink" data-var-fit-min="1px" style="${BOX};font:20px FxWide, monospace">x</h1>`,
          }),
        },
      ),
    );
    expect(await probe(el, { ask: 'font', family: 'FxWide' })).to.deep.equal(['loaded']);
    const size = parseFloat(await probe<string>(el, { ask: 'style', selector: '#title', property: 'font-size' }));
    expect(size).to.be.within(FITTED_PX - 0.25, FITTED_PX);
    expect(await probe(el, { ask: 'width', selector: '#title' })).to.equal(300);
  });

  it('fits again when a font variable’s face arrives after the values were applied', async () => {
    const el = await whenReady(
      mount(
        {},
        {
          srcdoc: compositionHtml({
            variables: [
              { id: 'title', type: 'string', label: 'Title', default: TEXT },
              { id: 'face', type: 'font', label: 'Face', default: 'monospace' },
            ],
            body: `<h1 id="title" data-var-text="title" data-var-fit="shrink" data-var-fit-min="1px" style="${BOX};font-size:20px;font-family:var(--face), monospace">x</h1>`,
          }),
        },
      ),
    );
    expect(await probe(el, { ask: 'style', selector: '#title', property: 'font-size' })).to.equal('20px');
    el.variables = { face: { name: 'FxWideLater', source: FONT_URL } };
    await nextEvent(el, 'variableschange');
    const size = await probeUntil<string>(
      el,
      { ask: 'style', selector: '#title', property: 'font-size' },
      (value) => parseFloat(value) < 20,
      4000,
    );
    expect(parseFloat(size)).to.be.within(FITTED_PX - 0.25, FITTED_PX);
  });
});
