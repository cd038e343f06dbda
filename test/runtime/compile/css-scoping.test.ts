// Sub-compositions' styles reach their own instance only (compile/css.ts's scopeCss).
import { expect } from '@open-wc/testing';
import { FrameAttr } from '../../../src/runtime/frame-config.js';
import { scopeCss } from '../../../src/runtime/compile/css.js';
import { openCompiled } from '../compiled-frame.js';
import { at, compile, parse, entry } from './helpers.js';

describe('compileComposition: style scoping', () => {
  const files = {
    'index.html': entry(
      '<p class="label" id="top">top</p>' +
        '<div id="a" data-composition-src="a.html"></div>' +
        '<div id="a2" data-composition-src="a.html"></div>' +
        '<div id="b" data-composition-src="b.html"></div>',
    ),
    'a.html':
      '<template><div data-composition-id="a"><p class="label">a</p><div id="nested" data-composition-src="c.html"></div></div>' +
      '<style>.label { color: rgb(0, 128, 0); } :root { background-color: rgb(1, 2, 3); } body { border-top: 3px solid rgb(4, 5, 6); }</style></template>',
    'b.html':
      '<template><div data-composition-id="b"><p class="label">b</p></div><style>.label { color: rgb(0, 0, 255); }</style></template>',
    'c.html': '<template><div data-composition-id="c"><p class="label">c</p></div></template>',
  };
  const colorOf = (view: Window, selector: string) =>
    view.getComputedStyle(view.document.querySelector(selector)!).color;

  it('styles only the instance that owns the rule', async () => {
    const view = await openCompiled(await compile(files));
    expect(colorOf(view, '#top')).to.equal('rgb(0, 0, 0)');
    expect(colorOf(view, '#a > .label')).to.equal('rgb(0, 128, 0)');
    expect(colorOf(view, '#a2 > .label')).to.equal('rgb(0, 128, 0)');
    expect(colorOf(view, '#b > .label')).to.equal('rgb(0, 0, 255)');
  });

  it('does not style the content of a sub-composition nested inside the instance, but may place its host', async () => {
    const view = await openCompiled(
      await compile({
        ...files,
        'a.html': files['a.html'].replace('</style>', ' #nested { margin-left: 7px; }</style>'),
      }),
    );
    expect(colorOf(view, '#nested .label')).to.equal('rgb(0, 0, 0)');
    expect(view.getComputedStyle(view.document.getElementById('nested')!).marginLeft).to.equal('7px');
  });

  it('reads :root, html and body of a sub-composition as its instance root', async () => {
    const view = await openCompiled(await compile(files));
    const a = view.getComputedStyle(view.document.getElementById('a')!);
    expect(a.backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(a.borderTopColor).to.equal('rgb(4, 5, 6)');
    expect(view.getComputedStyle(view.document.documentElement).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(view.getComputedStyle(view.document.body).borderTopWidth).to.equal('0px');
  });

  it('keeps @keyframes and @font-face global, scopes the rest', async () => {
    const compiled = await compile({
      'index.html': entry('<div data-composition-src="k.html"></div>'),
      'k.html':
        '<template><div data-composition-id="k"></div><style>@keyframes spin { to { opacity: 0; } } .x { animation: spin 1s; }</style></template>',
    });
    const css = parse(compiled.html).querySelector(`style[${FrameAttr.instanceStyle}="k-1"]`)!.textContent!;
    expect(css).to.match(/^@keyframes spin/);
    expect(css).to.include('@scope ([data-fx-instance="k-1"]) to ([data-fx-instance] > *) {');
  });

  it('scopes a linked stylesheet of the sub-composition, resolving its url() against the stylesheet', async () => {
    const compiled = await compile({
      'index.html': entry('<div data-composition-src="parts/s.html"></div>'),
      'parts/s.html':
        '<template><div data-composition-id="s"><p class="bg">x</p></div><link rel="stylesheet" href="css/s.css"></template>',
      'parts/css/s.css': '.bg { background-image: url(../img/bg.png); }',
    });
    const css = parse(compiled.html).querySelector(`style[${FrameAttr.instanceStyle}="s-1"]`)!.textContent!;
    expect(css).to.include(at('parts/img/bg.png'));
    expect(css).to.include('@scope');
    expect(parse(compiled.html).querySelector('link')).to.equal(null);
  });
});

describe('scopeCss: selectors naming the sub-composition root', () => {
  const cases: [string, string][] = [
    ['[data-composition-id="card"] .title { color: red; }', ':scope .title'],
    ['[data-composition-id] .title { color: red; }', ':scope .title'],
    ['#card-root > p { color: red; }', ':scope > p'],
    ['html body .title { color: red; }', ':scope .title'],
    [':root { --x: 1; }', ':scope'],
    ['.a, body .b { color: red; }', '.a, :scope .b'],
    ['.cards > [data-composition-id] { color: red; }', '.cards > [data-composition-id]'],
    ['.list body { color: red; }', '.list body'],
    ['@media (min-width: 1px) { [data-composition-id="card"] .t { color: red; } }', ':scope .t'],
  ];
  for (const [css, expected] of cases) {
    it(`rewrites ${JSON.stringify(css)} to contain ${JSON.stringify(expected)}`, () => {
      const scoped = scopeCss(css, '[data-fx-instance="card-1"]', { compositionId: 'card', elementId: 'card-root' });
      expect(scoped).to.include(expected);
    });
  }

  it('styles the instance through the root id selector in a live document', () => {
    const host = document.createElement('div');
    host.setAttribute('data-fx-instance', 'card-9');
    host.innerHTML = '<p class="title">t</p>';
    const style = document.createElement('style');
    style.textContent = scopeCss(
      '[data-composition-id="card"] .title { color: rgb(1, 2, 3); }',
      '[data-fx-instance="card-9"]',
      { compositionId: 'card' },
    );
    document.body.append(style, host);
    try {
      expect(getComputedStyle(host.querySelector('.title')!).color).to.equal('rgb(1, 2, 3)');
    } finally {
      style.remove();
      host.remove();
    }
  });
});
