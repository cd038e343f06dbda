import { expect } from '@open-wc/testing';
import { applyBindings } from '../../src/runtime/bindings.js';
import type { Issue } from '../../src/runtime/issues.js';
import { fontFamilyNames } from '../browsers.js';

const codes = (issues: Issue[]) => issues.map((found) => found.code);
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 50));

// Mounted synchronously in the live page: @open-wc's fixture waits for a frame, which a background tab throttles.
const mounted: Element[] = [];
function mount(markup: string): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  const root = template.content.firstElementChild as HTMLElement;
  document.body.append(root);
  mounted.push(root);
  return root;
}
const $ = <E extends Element = HTMLElement>(root: ParentNode, selector: string) => root.querySelector<E>(selector)!;

afterEach(() => {
  for (const root of mounted.splice(0)) root.remove();
});

describe('applyBindings: data-var-text', () => {
  it('renders markup in a value as text, creating no element', () => {
    const root = mount('<div data-composition-id="c"><h1 data-var-text="title">old</h1></div>');
    const issues = applyBindings(root, { title: '<b>bold</b> & <i>more</i>' });
    const h1 = $(root, 'h1');
    expect(issues).to.deep.equal([]);
    expect(h1.textContent).to.equal('<b>bold</b> & <i>more</i>');
    expect(h1.children).to.have.length(0);
  });

  it('creates no img and runs nothing for an onerror payload', async () => {
    const win = window as unknown as { __fxPwned?: number };
    delete win.__fxPwned;
    const root = mount('<div data-composition-id="c"><p data-var-text="title"></p></div>');
    applyBindings(root, { title: '<img src=x onerror="window.__fxPwned=1"><script>window.__fxPwned=2</script>' });
    await nextTask();
    expect(root.querySelector('img, script')).to.equal(null);
    expect(win.__fxPwned).to.equal(undefined);
    expect($(root, 'p').textContent).to.equal(
      '<img src=x onerror="window.__fxPwned=1"><script>window.__fxPwned=2</script>',
    );
  });

  it('replaces only its own text and keeps child elements (the same nodes)', () => {
    const root = mount('<div data-composition-id="c"><h1 data-var-text="title">old<b>kid</b>tail</h1></div>');
    const h1 = $(root, 'h1');
    const kid = $(h1, 'b');
    applyBindings(root, { title: 'new' });
    expect(h1.innerHTML).to.equal('new<b>kid</b>');
    expect($(h1, 'b')).to.equal(kid);
  });

  it('adds text before child elements when there was none', () => {
    const root = mount('<div data-composition-id="c"><h1 data-var-text="title"><b>kid</b></h1></div>');
    applyBindings(root, { title: 'new' });
    applyBindings(root, { title: 'newer' });
    expect($(root, 'h1').innerHTML).to.equal('newer<b>kid</b>');
  });

  const scalars: [string, unknown, string][] = [
    ['a number', 42.5, '42.5'],
    ['zero', 0, '0'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an empty string', '', ''],
    ['a font object', { name: 'Fira Sans', source: 'fira.woff2' }, 'Fira Sans'],
    ['an image object', { url: 'logo.png' }, 'logo.png'],
  ];
  for (const [name, value, text] of scalars) {
    it(`renders ${name} as "${text}"`, () => {
      const root = mount('<div data-composition-id="c"><span data-var-text="v">old</span></div>');
      expect(applyBindings(root, { v: value })).to.deep.equal([]);
      expect($(root, 'span').textContent).to.equal(text);
    });
  }

  const nonScalars: [string, unknown][] = [
    ['an array', ['a', 'b']],
    ['a plain object', { title: 'x' }],
    ['null', null],
    ['a font object with a non-string name', { name: 3 }],
  ];
  for (const [name, value] of nonScalars) {
    it(`reports binding_value_not_scalar for ${name} and keeps the text`, () => {
      const root = mount('<div data-composition-id="c"><span data-var-text="v">authored</span></div>');
      const issues = applyBindings(root, { v: value });
      expect(codes(issues)).to.deep.equal(['binding_value_not_scalar']);
      expect(issues[0]!.path).to.deep.equal(['data-var-text', 'v']);
      expect($(root, 'span').textContent).to.equal('authored');
    });
  }

  it('reports binding_undeclared for an unknown id and leaves the authored text', () => {
    const root = mount('<div data-composition-id="c"><span data-var-text="missing">authored</span></div>');
    const issues = applyBindings(root, { title: 'x' });
    expect(codes(issues)).to.deep.equal(['binding_undeclared']);
    expect(issues[0]!.path).to.deep.equal(['data-var-text', 'missing']);
    expect($(root, 'span').textContent).to.equal('authored');
  });

  it('does not take an inherited name like "toString" for a declared variable', () => {
    const root = mount('<div data-composition-id="c"><span data-var-text="toString">authored</span></div>');
    expect(codes(applyBindings(root, {}))).to.deep.equal(['binding_undeclared']);
    expect($(root, 'span').textContent).to.equal('authored');
  });

  // Their text is code, or is serialized unescaped (a saved and re-parsed document would turn a value into markup).
  const refusedText: [string, string, string][] = [
    ['<script>', '<script data-var-text="v">authored</script>', 'script'],
    ['<script type="module">', '<script type="module" data-var-text="v">authored</script>', 'script'],
    ['<style>', '<style data-var-text="v">authored</style>', 'style'],
    ['an upper-case <SCRIPT>', '<SCRIPT data-var-text="v">authored</SCRIPT>', 'script'],
    ['an SVG <script>', '<svg><script data-var-text="v">authored</script></svg>', 'script'],
    ['an SVG <style>', '<svg><style data-var-text="v">authored</style></svg>', 'style'],
    ['a MathML <style>', '<math><style data-var-text="v">authored</style></math>', 'style'],
    ['<xmp>', '<xmp data-var-text="v">authored</xmp>', 'xmp'],
    ['<iframe>', '<iframe data-var-text="v" title="t">authored</iframe>', 'iframe'],
    ['<noembed>', '<noembed data-var-text="v">authored</noembed>', 'noembed'],
    ['<noframes>', '<noframes data-var-text="v">authored</noframes>', 'noframes'],
    ['<noscript>', '<noscript data-var-text="v">authored</noscript>', 'noscript'],
  ];
  for (const [name, markup, selector] of refusedText) {
    it(`refuses ${name} with binding_tag_not_allowed and keeps the authored text`, () => {
      const root = mount(`<div data-composition-id="c">${markup}</div>`);
      const issues = applyBindings(root, { v: '@import url(https://example.com/x.css); alert(1)' });
      expect(codes(issues)).to.deep.equal(['binding_tag_not_allowed']);
      expect(issues[0]!.path).to.deep.equal(['data-var-text', 'v']);
      expect($(root, selector).textContent).to.equal('authored');
    });
  }

  it('refuses the tag before looking the id up', () => {
    const root = mount('<div data-composition-id="c"><style data-var-text="missing">authored</style></div>');
    expect(codes(applyBindings(root, {}))).to.deep.equal(['binding_tag_not_allowed']);
  });

  // Their text is shown, escaped when serialized, or ignored.
  const allowedText: [string, string, string][] = [
    ['<textarea>', '<textarea data-var-text="v" aria-label="t">authored</textarea>', 'textarea'],
    ['<title>', '<title data-var-text="v">authored</title>', 'title'],
    ['<option>', '<select aria-label="t"><option data-var-text="v">authored</option></select>', 'option'],
    ['an SVG <text>', '<svg><text data-var-text="v">authored</text></svg>', 'text'],
    ['an SVG <set>', '<svg><rect><set data-var-text="v" attributeName="x" to="1"/></rect></svg>', 'set'],
  ];
  for (const [name, markup, selector] of allowedText) {
    it(`binds ${name} as text`, () => {
      const root = mount(`<div data-composition-id="c">${markup}</div>`);
      expect(applyBindings(root, { v: '</x><script>x</script>' })).to.deep.equal([]);
      expect($(root, selector).textContent).to.equal('</x><script>x</script>');
      expect($(root, selector).children).to.have.length(0);
    });
  }

  it('binds the root element itself', () => {
    const root = mount('<h1 data-composition-id="c" data-var-text="title">old</h1>');
    applyBindings(root, { title: 'new' });
    expect(root.textContent).to.equal('new');
  });
});

describe('applyBindings: CSS custom properties', () => {
  it('sets --{id} on the composition root and reaches var() in descendants', () => {
    const root = mount(
      '<div data-composition-id="c"><p style="color: var(--accent); width: calc(var(--size) * 1px)">x</p></div>',
    );
    expect(applyBindings(root, { accent: '#ff8000', size: 120 })).to.deep.equal([]);
    expect(root.style.getPropertyValue('--accent')).to.equal('#ff8000');
    expect(root.style.getPropertyValue('--size')).to.equal('120');
    const computed = getComputedStyle($(root, 'p'));
    expect(computed.color).to.equal('rgb(255, 128, 0)');
    expect(computed.width).to.equal('120px');
    expect(document.documentElement.style.getPropertyValue('--accent')).to.equal('');
  });

  it('sets properties on <html> when a Document is passed', () => {
    const root = mount('<div data-composition-id="c"><p style="color: var(--fx-test-accent)">x</p></div>');
    const html = document.documentElement;
    try {
      applyBindings(document, { 'fx-test-accent': '#0000ff' });
      expect(html.style.getPropertyValue('--fx-test-accent')).to.equal('#0000ff');
      expect(root.style.getPropertyValue('--fx-test-accent')).to.equal('');
      expect(getComputedStyle($(root, 'p')).color).to.equal('rgb(0, 0, 255)');
    } finally {
      applyBindings(document, {});
    }
    expect(html.style.getPropertyValue('--fx-test-accent')).to.equal('');
  });

  it('applies a font family name', () => {
    const root = mount('<div data-composition-id="c"><p style="font-family: var(--face)">x</p></div>');
    applyBindings(root, { face: { name: 'Fira Sans', source: 'fonts/fira.woff2' } });
    expect(root.style.getPropertyValue('--face')).to.equal('Fira Sans');
    expect(fontFamilyNames(getComputedStyle($(root, 'p')).fontFamily)).to.deep.equal(['Fira Sans']);
  });

  it('sets booleans and image URLs as text, and skips non-scalars', () => {
    const root = mount('<div data-composition-id="c"></div>');
    expect(applyBindings(root, { on: false, logo: { url: 'logo.png' }, list: [1, 2], nothing: null })).to.deep.equal(
      [],
    );
    expect(root.style.getPropertyValue('--on')).to.equal('false');
    expect(root.style.getPropertyValue('--logo')).to.equal('logo.png');
    expect(root.style.getPropertyValue('--list')).to.equal('');
    expect(root.style.getPropertyValue('--nothing')).to.equal('');
  });

  const stripped: [string, string, string][] = [
    ['a declaration break', 'red; background: url(x)', 'red background: url(x)'],
    ['braces', 'a{b}c', 'abc'],
    ['angle brackets', '</style><script>x</script>', '/stylescriptx/script'],
    ['backslash escapes', 'a\\3b b', 'a3b b'],
    ['newlines', 'a\nb\r\nc\fd', 'abcd'],
  ];
  for (const [name, value, css] of stripped) {
    it(`strips ${name} from values`, () => {
      const root = mount('<div data-composition-id="c"></div>');
      applyBindings(root, { v: value });
      expect(root.style.getPropertyValue('--v')).to.equal(css);
      expect(root.getAttribute('style')).to.equal(`--v: ${css};`);
    });
  }

  it('removes properties whose keys disappeared on re-apply', () => {
    const root = mount('<div data-composition-id="c" style="color: red"></div>');
    applyBindings(root, { a: '1', b: '2' });
    applyBindings(root, { a: '1' });
    expect(root.style.getPropertyValue('--a')).to.equal('1');
    expect(root.style.getPropertyValue('--b')).to.equal('');
    applyBindings(root, { a: [1] });
    expect(root.style.getPropertyValue('--a')).to.equal('');
    expect(root.style.color).to.equal('red');
  });

  const refusedByCss: [string, string][] = [
    ['an unmatched ")"', 'bad)'],
    ['an unmatched "]"', 'bad]'],
    ['"!important"', 'red !important'],
  ];
  for (const [name, value] of refusedByCss) {
    it(`reports css_property_rejected for ${name} and leaves no stale value`, () => {
      const root = mount('<div data-composition-id="c"></div>');
      applyBindings(root, { v: 'good' });
      const issues = applyBindings(root, { v: value });
      expect(issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
        ['css_property_rejected', 'warning', ['--v']],
      ]);
      expect(root.style.getPropertyValue('--v')).to.equal('');
    });
  }

  it('keeps the style attribute unchanged when re-applying values with edge blanks', () => {
    const root = mount('<div data-composition-id="c"></div>');
    applyBindings(root, { a: '  x\t', b: 'y' });
    const style = root.getAttribute('style');
    expect(style).to.equal('--a: x; --b: y;');
    applyBindings(root, { a: '  x\t', b: 'y' });
    expect(root.getAttribute('style')).to.equal(style);
  });

  it('sets an id with a space under an escaped property name', () => {
    const root = mount('<div data-composition-id="c"></div>');
    expect(applyBindings(root, { 'two words': 'x', after: 'y' })).to.deep.equal([]);
    expect(root.style.getPropertyValue('--two words')).to.equal('x');
    expect(root.style.getPropertyValue('--after')).to.equal('y');
  });
});

describe('applyBindings: data-var-src', () => {
  it('sets src and restores the authored src when the value is cleared or removed', () => {
    const root = mount('<div data-composition-id="c"><img data-var-src="pic" src="authored.png" alt=""></div>');
    const img = $<HTMLImageElement>(root, 'img');
    expect(applyBindings(root, { pic: 'new.png' })).to.deep.equal([]);
    expect(img.getAttribute('src')).to.equal('new.png');
    applyBindings(root, { pic: '' });
    expect(img.getAttribute('src')).to.equal('authored.png');
    applyBindings(root, { pic: { url: 'object.png' } });
    expect(img.getAttribute('src')).to.equal('object.png');
    applyBindings(root, { pic: null });
    expect(img.getAttribute('src')).to.equal('authored.png');
    expect(codes(applyBindings(root, {}))).to.deep.equal(['binding_undeclared']);
    expect(img.getAttribute('src')).to.equal('authored.png');
  });

  it('removes src again when there was no authored src', () => {
    const root = mount('<div data-composition-id="c"><img data-var-src="pic" alt=""></div>');
    const img = $(root, 'img');
    applyBindings(root, { pic: 'a.png' });
    expect(img.getAttribute('src')).to.equal('a.png');
    applyBindings(root, { pic: '' });
    expect(img.hasAttribute('src')).to.equal(false);
  });

  const refused: [string, string][] = [
    ['javascript:', 'javascript:alert(1)'],
    ['mixed-case javascript: with spaces', '  JaVaScRiPt:alert(1)'],
    ['data:text/html', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
  ];
  for (const [name, url] of refused) {
    it(`refuses ${name} with binding_url_refused and keeps the authored src`, () => {
      const root = mount('<div data-composition-id="c"><img data-var-src="pic" src="authored.png" alt=""></div>');
      expect(codes(applyBindings(root, { pic: url }))).to.deep.equal(['binding_url_refused']);
      expect($(root, 'img').getAttribute('src')).to.equal('authored.png');
    });
  }

  it('accepts a data:image URL', () => {
    const url = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    const root = mount('<div data-composition-id="c"><img data-var-src="pic" alt=""></div>');
    expect(applyBindings(root, { pic: url })).to.deep.equal([]);
    expect($(root, 'img').getAttribute('src')).to.equal(url);
  });

  for (const tag of ['iframe', 'script', 'embed']) {
    it(`ignores data-var-src on <${tag}> with binding_tag_not_allowed`, () => {
      const root = mount(`<div data-composition-id="c"><${tag} data-var-src="pic"></${tag}></div>`);
      expect(codes(applyBindings(root, { pic: 'https://example.com/x' }))).to.deep.equal(['binding_tag_not_allowed']);
      expect($(root, tag).hasAttribute('src')).to.equal(false);
    });
  }

  // Elements that load a URL from `src` too, but are not media: the allow-list keeps them out.
  const refusedSrc: [string, string, string][] = [
    ['<input type="image">', '<input type="image" data-var-src="pic" alt="x">', 'input'],
    ['<track>', '<video><track data-var-src="pic"></video>', 'track'],
    ['an SVG <script>', '<svg><script data-var-src="pic"></script></svg>', 'script'],
    ['an SVG <image>', '<svg><image data-var-src="pic"></image></svg>', 'image'],
    ['<object>', '<object data-var-src="pic"></object>', 'object'],
  ];
  for (const [name, markup, selector] of refusedSrc) {
    it(`ignores data-var-src on ${name} with binding_tag_not_allowed`, () => {
      const root = mount(`<div data-composition-id="c">${markup}</div>`);
      expect(codes(applyBindings(root, { pic: 'https://example.com/x' }))).to.deep.equal(['binding_tag_not_allowed']);
      expect($(root, selector).hasAttribute('src')).to.equal(false);
    });
  }

  it('updates a <source> and reloads its media element only when src changes', () => {
    const root = mount(
      '<div data-composition-id="c"><video><source data-var-src="clip" src="a.mp4" type="video/mp4"></video></div>',
    );
    const video = $<HTMLVideoElement>(root, 'video');
    let loads = 0;
    video.load = () => {
      loads += 1;
    };
    applyBindings(root, { clip: 'b.mp4' });
    expect($(root, 'source').getAttribute('src')).to.equal('b.mp4');
    expect(loads).to.equal(1);
    applyBindings(root, { clip: 'b.mp4' });
    expect(loads).to.equal(1);
    applyBindings(root, { clip: '' });
    expect($(root, 'source').getAttribute('src')).to.equal('a.mp4');
    expect(loads).to.equal(2);
  });
});

describe('applyBindings: idempotence', () => {
  it('gives the identical DOM and style when applied twice', () => {
    const root = mount(`<div data-composition-id="c" style="background: white">
      <h1 data-var-text="title">old<b>kid</b> tail</h1>
      <img data-var-src="pic" src="authored.png" alt="">
      <video data-color-grading='{"adjust":{"exposure":"$exp"}}' style="filter: grayscale(1)"><source data-var-src="clip" src="a.mp4"></video>
      <p style="color: var(--accent)">x</p>
    </div>`);
    const values = {
      title: 'New <b>',
      pic: 'b.png',
      clip: 'c.mp4',
      exp: 1,
      accent: '#123456',
      face: { name: 'Inter' },
    };
    const first = applyBindings(root, values);
    const html = root.outerHTML;
    const style = root.getAttribute('style');
    const second = applyBindings(root, values);
    expect(root.outerHTML).to.equal(html);
    expect(root.getAttribute('style')).to.equal(style);
    expect(second).to.deep.equal(first);
  });
});

describe('applyBindings: ownership of nested sub-compositions', () => {
  const nested = `<div data-composition-id="outer">
    <h1 data-var-text="t">outer text</h1>
    <div data-composition-id="inner">
      <h2 data-var-text="t">inner text</h2>
      <img data-var-src="pic" src="inner.png" alt="">
      <div data-composition-id="deepest"><h3 data-var-text="t">deepest text</h3></div>
    </div>
  </div>`;

  it('does not touch elements of a nested sub-composition when binding the outer root', () => {
    const outer = mount(nested);
    const inner = $(outer, '[data-composition-id="inner"]');
    const issues = applyBindings(outer, { t: 'OUT', pic: 'outer.png' });
    expect(issues).to.deep.equal([]);
    expect($(outer, 'h1').textContent).to.equal('OUT');
    expect($(outer, 'h2').textContent).to.equal('inner text');
    expect($(outer, 'h3').textContent).to.equal('deepest text');
    expect($(outer, 'img').getAttribute('src')).to.equal('inner.png');
    expect(outer.style.getPropertyValue('--t')).to.equal('OUT');
    expect(inner.hasAttribute('style')).to.equal(false);
  });

  it('binds only the inner composition when binding the inner root', () => {
    const outer = mount(nested);
    const inner = $(outer, '[data-composition-id="inner"]');
    applyBindings(outer, { t: 'OUT' });
    const issues = applyBindings(inner, { t: 'IN', pic: 'new.png' });
    expect(issues).to.deep.equal([]);
    expect($(outer, 'h1').textContent).to.equal('OUT');
    expect($(outer, 'h2').textContent).to.equal('IN');
    expect($(outer, 'h3').textContent).to.equal('deepest text');
    expect($(outer, 'img').getAttribute('src')).to.equal('new.png');
    expect(inner.style.getPropertyValue('--t')).to.equal('IN');
    expect(outer.style.getPropertyValue('--t')).to.equal('OUT');
    expect($(outer, '[data-composition-id="deepest"]').hasAttribute('style')).to.equal(false);
  });

  it('binds the deepest composition on its own', () => {
    const outer = mount(nested);
    applyBindings($(outer, '[data-composition-id="deepest"]'), { t: 'DEEP' });
    expect([$(outer, 'h1').textContent, $(outer, 'h2').textContent, $(outer, 'h3').textContent]).to.deep.equal([
      'outer text',
      'inner text',
      'DEEP',
    ]);
  });

  it('treats the top-level composition in a Document as the outer owner', () => {
    const outer = mount(nested);
    try {
      applyBindings(document, { t: 'DOC' });
      expect([$(outer, 'h1').textContent, $(outer, 'h2').textContent]).to.deep.equal(['DOC', 'inner text']);
    } finally {
      applyBindings(document, {});
    }
  });
});
