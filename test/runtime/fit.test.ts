import { expect } from '@open-wc/testing';
import { applyBindings } from '../../src/runtime/bindings.js';
import { refitWhereStale } from '../../src/runtime/frame/refit.js';
import type { Issue } from '../../src/runtime/issues.js';

const codes = (issues: Issue[]) => issues.map((found) => found.code);
const ROOT_STYLE = 'position:relative;width:400px;height:200px;font:20px/1.2 sans-serif';

const mounted: Element[] = [];
function mount(body: string, rootStyle = ROOT_STYLE): HTMLElement {
  const root = document.createElement('div');
  root.setAttribute('data-composition-id', 'c');
  root.setAttribute('style', rootStyle);
  root.innerHTML = body;
  document.body.append(root);
  mounted.push(root);
  return root;
}
afterEach(() => {
  for (const root of mounted.splice(0)) root.remove();
});

const fontSize = (element: Element) => parseFloat(getComputedStyle(element).fontSize);
const fits = (element: HTMLElement) =>
  element.scrollWidth <= element.clientWidth + 1 && element.scrollHeight <= element.clientHeight + 1;
const BOX = 'style="width:200px;height:60px;white-space:nowrap;font-size:40px;line-height:1.2;margin:0"';

describe('data-var-fit="shrink"', () => {
  it('leaves text that fits at its authored size', () => {
    const root = mount(`<h1 data-var-text="t" data-var-fit="shrink" ${BOX}></h1>`);
    const h1 = root.querySelector('h1')!;
    expect(applyBindings(root, { t: 'Hi' })).to.deep.equal([]);
    expect(h1.style.fontSize, 'as authored').to.equal('40px');
  });

  it('shrinks long text to the largest size that fits its box, within a quarter pixel', () => {
    const root = mount(`<h1 data-var-text="t" data-var-fit="shrink" data-var-fit-min="4px" ${BOX}></h1>`);
    const h1 = root.querySelector('h1')!;
    applyBindings(root, { t: 'A headline far too wide' });
    const size = fontSize(h1);
    expect(size).to.be.below(40).and.above(4);
    expect(fits(h1)).to.equal(true);
    h1.style.fontSize = `${size + 0.5}px`;
    expect(fits(h1), 'half a pixel more overflows').to.equal(false);
  });

  it('grows back to the authored size when a shorter value comes', () => {
    const root = mount(`<h1 data-var-text="t" data-var-fit="shrink" ${BOX}></h1>`);
    const h1 = root.querySelector('h1')!;
    applyBindings(root, { t: 'A headline far too wide' });
    expect(fontSize(h1)).to.be.below(40);
    applyBindings(root, { t: 'Hi' });
    expect(fontSize(h1)).to.equal(40);
  });

  it('stops at a px minimum, and at a share of the authored size', () => {
    const root = mount(
      `<h1 data-var-text="t" data-var-fit="shrink" data-var-fit-min="12px" ${BOX}></h1><p data-var-text="t" data-var-fit="shrink" data-var-fit-min="0.75" ${BOX}></p><h2 data-var-text="t" data-var-fit="shrink" ${BOX}></h2>`,
    );
    applyBindings(root, { t: 'W'.repeat(200) });
    expect(fontSize(root.querySelector('h1')!)).to.be.within(12, 12.25);
    expect(fontSize(root.querySelector('p')!)).to.be.within(30, 30.25);
    expect(fontSize(root.querySelector('h2')!), 'half by default').to.be.within(20, 20.25);
  });

  it('keeps a box that grows with its text inside the composition root', () => {
    const root = mount(
      '<span data-var-text="t" data-var-fit="shrink" data-var-fit-min="2px" style="position:absolute;left:20px;top:0;white-space:nowrap;font-size:40px"></span>',
    );
    const span = root.querySelector('span')!;
    applyBindings(root, { t: 'A label that runs far past the edge' });
    expect(fontSize(span)).to.be.below(40);
    expect(span.offsetLeft + span.offsetWidth).to.be.at.most(401);
  });

  it('fits from the size the current values give (a CSS variable scaling the text)', () => {
    const root = mount(
      `<h1 data-var-text="t" data-var-fit="shrink" data-var-fit-min="1px" style="width:300px;height:100px;white-space:nowrap;margin:0;line-height:1;font-size:calc(20px * var(--scale))"></h1>`,
    );
    const h1 = root.querySelector('h1')!;
    applyBindings(root, { t: 'Short', scale: 1 });
    expect(fontSize(h1)).to.equal(20);
    applyBindings(root, { t: 'Short', scale: 4 });
    expect(fontSize(h1)).to.equal(80);
    applyBindings(root, { t: 'Short', scale: 10 });
    expect(fontSize(h1)).to.be.below(100);
    expect(fits(h1)).to.equal(true);
  });

  it('leaves an element that is not laid out alone', () => {
    const root = mount(`<h1 data-var-text="t" data-var-fit="shrink" ${BOX.replace('margin:0', 'display:none')}></h1>`);
    applyBindings(root, { t: 'W'.repeat(100) });
    expect(root.querySelector('h1')!.style.fontSize).to.equal('40px');
  });

  it('fits a text that was not laid out at its fit once the runtime refits (after a seek), and only then', () => {
    const root = mount(`<h1 data-var-text="t" data-var-fit="shrink" data-var-fit-min="4px" ${BOX}></h1>`);
    root.style.display = 'none';
    const h1 = root.querySelector('h1')!;
    applyBindings(root, { t: 'A headline far too wide' });
    refitWhereStale(); // the faces counted: from here on, refits fit only what waits for layout
    expect(h1.style.fontSize, 'not laid out: as authored').to.equal('40px');
    root.style.display = '';
    refitWhereStale();
    expect(fontSize(h1)).to.be.below(40);
    expect(fits(h1)).to.equal(true);
    h1.style.fontSize = '41px';
    refitWhereStale();
    expect(h1.style.fontSize, 'a fitted text is not fitted again while the faces stay the same').to.equal('41px');
  });

  for (const [name, attributes, code] of [
    ['an unknown mode', 'data-var-fit="clamp"', 'binding_fit_invalid'],
    ['a minimum above the authored size', 'data-var-fit="shrink" data-var-fit-min="2"', 'binding_fit_min_invalid'],
    ['a minimum in em', 'data-var-fit="shrink" data-var-fit-min="1em"', 'binding_fit_min_invalid'],
  ] as const) {
    it(`refuses ${name} with "${code}" and keeps the authored size`, () => {
      const root = mount(`<h1 data-var-text="t" ${attributes} ${BOX}></h1>`);
      expect(codes(applyBindings(root, { t: 'W'.repeat(100) }))).to.deep.equal([code]);
      expect(fontSize(root.querySelector('h1')!)).to.equal(40);
    });
  }
});
