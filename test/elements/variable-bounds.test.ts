import { expect } from '@open-wc/testing';
import type { Issue } from '../../src/runtime/issues.js';
import { checkVariableBounds } from '../../src/elements/composition/variable-bounds.js';
import { compositionHtml, mount, whenReady } from './helpers.js';

const DEMO_COMPOSITIONS = [
  '/demo/compositions/launch/index.html',
  '/demo/compositions/launch/day.html',
  '/demo/compositions/media/index.html',
  '/demo/compositions/story/index.html',
];
const LOAD_MS = 20000;
const summary = (issues: readonly Issue[]) => issues.map((found) => `${found.code} ${found.path.join('/')}`);

const HEADLINE = { id: 'headline', type: 'string', label: 'Headline', default: 'Hi', maxLength: 30 };
const SIZE = { id: 'size', type: 'number', label: 'Size', default: 20, min: 10, max: 60 };
/** A 320 × 180 root with a headline over a caption: what the launch demo was before it fitted its text. */
function headlineOverCaption(fit: string): string {
  return compositionHtml({
    duration: 2,
    variables: [HEADLINE, SIZE],
    head: '<style>h1 { position: absolute; left: 10px; right: 10px; top: 10px; height: 40px; margin: 0; line-height: 1; white-space: nowrap; font-size: calc(var(--size) * 1px); } p { position: absolute; left: 10px; top: 60px; margin: 0; }</style>',
    body: `<h1 data-var-text="headline" ${fit}>Hi</h1><p>caption</p>`,
  });
}

describe('checkVariableBounds', () => {
  for (const src of DEMO_COMPOSITIONS) {
    it(`finds nothing overflowing or overlapping in ${src} at any bound of its variables`, async function () {
      this.timeout(60000);
      const el = await whenReady(mount({ src }), LOAD_MS);
      expect(el.declarations.length).to.be.above(0);
      expect(summary(await checkVariableBounds(el))).to.deep.equal([]);
    });
  }

  it('reports text that overflows at its bounds, with the variable and value, and restores the values', async function () {
    this.timeout(20000);
    const el = await whenReady(mount({ variables: '{"size":12}' }, { srcdoc: headlineOverCaption('') }));
    const issues = await checkVariableBounds(el);
    expect(summary(issues)).to.deep.equal([
      'variable_overflows headline/data-var-text/headline',
      'variable_overflows size/data-var-text/headline',
    ]);
    expect(issues[0]!.severity).to.equal('warning');
    expect(issues[0]!.message).to.match(/^with "headline" = "W{30}": <h1> showing "headline" does not hold it/);
    expect(issues[1]!.message).to.match(/^with "size" = 60: /);
    expect(el.variables).to.deep.equal({ size: 12 });
  });

  it('reports a box that covers a sibling', async function () {
    this.timeout(20000);
    const html = headlineOverCaption('data-var-fit="shrink"').replace('height: 40px', 'height: 60px');
    const el = await whenReady(mount({}, { srcdoc: html }));
    expect(summary(await checkVariableBounds(el))).to.include('variable_overlaps headline/data-var-text/headline');
  });

  it('finds nothing once the text is fitted', async function () {
    this.timeout(20000);
    const el = await whenReady(
      mount({}, { srcdoc: headlineOverCaption('data-var-fit="shrink" data-var-fit-min="2px"') }),
    );
    expect(summary(await checkVariableBounds(el))).to.deep.equal([]);
  });
});

describe('checkVariableBounds with hostile declarations', () => {
  it('a maxLength of 1e15 is tried at a bounded length: an answer, no RangeError in the page', async function () {
    this.timeout(20000);
    const huge = { ...HEADLINE, maxLength: 1e15 };
    const html = compositionHtml({
      duration: 2,
      variables: [huge],
      head: '<style>h1 { width: 100px; overflow: hidden; white-space: nowrap; margin: 0; }</style>',
      body: '<h1 data-var-text="headline">Hi</h1>',
    });
    const el = await whenReady(mount({}, { srcdoc: html }));
    expect(summary(await checkVariableBounds(el))).to.deep.equal([
      'variable_overflows headline/data-var-text/headline',
    ]);
  });
});
