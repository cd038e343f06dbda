// A value bound with `data-var-text` is text, never code. On <script> and <style> (any namespace) and on the raw-text
// elements whose text is written back unescaped, the binding is refused with binding_tag_not_allowed and the authored
// content stays: on a host page through applyBindings(document, …) (where the value would run in the host origin)
// and in the preview through <fx-composition>. Traps: a global a payload would set, a server log of requests under
// /test/fixtures/trap/, a round trip of the markup through a parser, and the element's error events.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { applyBindings } from '../../src/runtime/bindings.js';
import { BindingIssueCode } from '../../src/runtime/issues.js';
import type { Issue } from '../../src/runtime/issues.js';
import { compositionHtml, mount, nextEvent, probe, sleep, waitFor, whenReady } from '../elements/helpers.js';

const NS = {
  html: 'http://www.w3.org/1999/xhtml',
  svg: 'http://www.w3.org/2000/svg',
  math: 'http://www.w3.org/1998/Math/MathML',
  unknown: 'urn:fx-test:unknown',
} as const;
const PARENT_IN: Record<keyof typeof NS, string | undefined> = {
  html: undefined,
  svg: 'svg',
  math: 'math',
  unknown: undefined,
};

const FLAG = '__fxRawTextRan';
const MARKER = 'fx-raw-text-ran';
// Long enough for a module script and a stylesheet import to have run (the trap checks below prove they do by then).
const SETTLE_MS = 600;

// A fresh trap folder per run, so the log only holds this file's requests.
const RUN = crypto.randomUUID();
const trapUrl = (name: string) => new URL(`/test/fixtures/trap/${RUN}/${name}`, location.href).href;
const requested = async () =>
  (await executeServerCommand<string[], { under: string }>('fx-requests', { under: RUN })) ?? [];
const cssFileOf = (caseName: string) => `${caseName.replaceAll(' ', '-')}.css`;
const importOf = (name: string) => `@import url("${trapUrl(name)}"); html { outline: 3px solid rgb(1, 2, 3); }`;

const ran: string[] = [];
before(() => {
  Object.defineProperty(window, FLAG, {
    configurable: true,
    get: () => undefined,
    set: (value: unknown) => ran.push(String(value)),
  });
});
after(() => {
  delete (window as unknown as Record<string, unknown>)[FLAG];
});

/** `ns:tag` created in the DOM, not parsed: a parsed script is marked started, and binding it later would prove nothing. */
function create(ns: keyof typeof NS, tag: string, authored: string, attributes: Record<string, string> = {}): Element {
  const element = document.createElementNS(NS[ns], tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.setAttribute('data-var-text', 't');
  if (authored) element.textContent = authored;
  return element;
}

const hosts: Element[] = [];
/** Puts `element` on the host page (inside an <svg> or <math> for those namespaces). */
function place(element: Element, ns: keyof typeof NS): Element {
  const host = document.createElement('div');
  const parentTag = PARENT_IN[ns];
  const parent = parentTag ? host.appendChild(document.createElementNS(NS[ns], parentTag)) : host;
  parent.append(element);
  document.body.append(host);
  hosts.push(host);
  return host;
}

afterEach(() => {
  for (const host of hosts.splice(0)) host.remove();
  applyBindings(document, {}); // takes the `--t` property off <html> again
  ran.length = 0;
});

const codes = (issues: readonly Issue[]) => issues.map((found) => found.code);
/**
 * The tags of the elements a parser makes of `markup`: what a saved-and-reloaded document would contain. Names, not
 * nodes: a failed assertion holding a DOM node makes the test runner hang serializing it.
 */
const reparsedTags = (markup: string) =>
  [...new DOMParser().parseFromString(`<!doctype html><body>${markup}`, 'text/html').body.querySelectorAll('*')].map(
    (element) => element.localName,
  );
const breakout = (tag: string) => `</${tag}><img src="x:" onerror="window.${FLAG}='${tag}'">`;

interface RefusedCase {
  readonly name: string;
  readonly ns: keyof typeof NS;
  readonly tag: string;
  readonly authored: string;
  readonly value: string;
  readonly attributes?: Record<string, string>;
  readonly is?: string;
}

const script = (name: string, ns: keyof typeof NS, attributes?: Record<string, string>): RefusedCase => ({
  name,
  ns,
  tag: 'script',
  authored: '',
  value: `window.${FLAG} = ${JSON.stringify(name)}`,
  ...(attributes ? { attributes } : {}),
});
const style = (name: string, ns: keyof typeof NS): RefusedCase => ({
  name,
  ns,
  tag: 'style',
  authored: '/* authored */',
  value: importOf(cssFileOf(name)),
});
// Their text is serialized unescaped: saved with outerHTML/innerHTML and parsed again, a value becomes markup.
const rawText = (tag: string): RefusedCase => ({
  name: `<${tag}>`,
  ns: 'html',
  tag,
  authored: 'authored',
  value: breakout(tag),
});

const CUSTOMIZED_SCRIPT = 'fx-raw-text-script';
customElements.define(CUSTOMIZED_SCRIPT, class extends HTMLScriptElement {}, { extends: 'script' });

const REFUSED: readonly RefusedCase[] = [
  script('a classic script', 'html'),
  script('a module script', 'html', { type: 'module' }),
  script('an SVG script', 'svg'),
  script('a MathML-namespace script', 'math'),
  script('an unknown-namespace script', 'unknown'),
  { ...script('an is= customised built-in script', 'html'), is: CUSTOMIZED_SCRIPT },
  style('an HTML style', 'html'),
  style('an SVG style', 'svg'),
  style('a MathML-namespace style', 'math'),
  style('an unknown-namespace style', 'unknown'),
  ...['xmp', 'iframe', 'noembed', 'noframes', 'noscript'].map(rawText),
];

function createCase(testCase: RefusedCase): Element {
  if (!testCase.is) return create(testCase.ns, testCase.tag, testCase.authored, testCase.attributes);
  const element = document.createElement(testCase.tag, { is: testCase.is });
  element.setAttribute('data-var-text', 't');
  return element;
}

describe('the traps of this file', () => {
  it('catch a script whose text arrives after it was connected', async () => {
    const element = create('html', 'script', '');
    place(element, 'html');
    element.textContent = `window.${FLAG} = 'control'`;
    expect(ran).to.deep.equal(['control']);
  });

  it('log an @import of a stylesheet', async () => {
    const element = create('html', 'style', '');
    place(element, 'html');
    element.textContent = importOf('control.css');
    await waitFor(
      async () => (await requested()).some((path) => path.endsWith('/control.css')),
      'the control @import',
      SETTLE_MS * 5,
    );
  });

  it('see raw text that turns into markup when parsed again', () => {
    const element = create('html', 'xmp', '');
    const host = place(element, 'html');
    element.textContent = breakout('xmp');
    expect(reparsedTags(host.innerHTML)).to.include('img');
  });
});

describe('applyBindings(document, …) on a host page: data-var-text on code and raw-text elements', () => {
  for (const testCase of REFUSED) {
    it(`refuses ${testCase.name} with binding_tag_not_allowed, runs and loads nothing, keeps the authored text`, async () => {
      const element = createCase(testCase);
      const host = place(element, testCase.ns);
      const before = host.innerHTML;
      const issues = applyBindings(document, { t: testCase.value });
      expect(codes(issues)).to.deep.equal([BindingIssueCode.tagNotAllowed]);
      expect(issues[0]!.path).to.deep.equal(['data-var-text', 't']);
      expect(issues[0]!.message).to.include(`<${element.localName}>`);
      expect(element.textContent).to.equal(testCase.authored);
      expect(host.innerHTML).to.equal(before);
      expect(reparsedTags(host.innerHTML)).to.not.include('img');
      await sleep(SETTLE_MS);
      expect(ran).to.deep.equal([]);
      expect((await requested()).filter((path) => path.endsWith(`/${cssFileOf(testCase.name)}`))).to.deep.equal([]);
    });
  }

  it('refuses a script again after it was moved, and again on every apply', async () => {
    const element = create('html', 'script', '');
    place(element, 'html');
    expect(codes(applyBindings(document, { t: `window.${FLAG} = 'first'` }))).to.deep.equal([
      BindingIssueCode.tagNotAllowed,
    ]);
    place(element, 'svg'); // moved into an <svg> of another host
    expect(codes(applyBindings(document, { t: `window.${FLAG} = 'moved'` }))).to.deep.equal([
      BindingIssueCode.tagNotAllowed,
    ]);
    await sleep(SETTLE_MS);
    expect(element.textContent).to.equal('');
    expect(ran).to.deep.equal([]);
  });

  it('refuses the style but binds its bound sibling', () => {
    const host = place(create('html', 'span', 'authored'), 'html');
    const refused = host.appendChild(create('html', 'style', '/* authored */'));
    const issues = applyBindings(document, { t: 'shown' });
    expect(codes(issues)).to.deep.equal([BindingIssueCode.tagNotAllowed]);
    expect(host.querySelector('span')!.textContent).to.equal('shown');
    expect(refused.textContent).to.equal('/* authored */');
  });

  // Their text is inert: shown as text, escaped when serialized, not rendered, or (<plaintext>) never ended by a tag.
  const allowed: [string, keyof typeof NS, string][] = [
    ['<plaintext>', 'html', 'plaintext'],
    ['<textarea>', 'html', 'textarea'],
    ['<title>', 'html', 'title'],
    ['<template>', 'html', 'template'],
    ['<option>', 'html', 'option'],
    ['<button>', 'html', 'button'],
    ['an SVG <text>', 'svg', 'text'],
    ['an SVG <title>', 'svg', 'title'],
    ['an SVG <set>', 'svg', 'set'],
    ['an SVG <animate>', 'svg', 'animate'],
    ['a MathML <mtext>', 'math', 'mtext'],
  ];
  for (const [name, ns, tag] of allowed) {
    it(`binds ${name}: the value stays text, also when the markup is parsed again`, async () => {
      const element = create(ns, tag, 'authored');
      const host = place(element, ns);
      expect(applyBindings(document, { t: breakout(tag) })).to.deep.equal([]);
      expect(element.textContent).to.equal(breakout(tag));
      expect(reparsedTags(host.innerHTML)).to.not.include('img');
      await sleep(50);
      expect(ran).to.deep.equal([]);
    });
  }
});

describe('<fx-composition>: data-var-text on script and style in the preview', () => {
  const declarations = [
    { id: 't', type: 'string', label: 'Script', default: '' },
    { id: 'css', type: 'string', label: 'Style', default: '' },
  ];
  const body =
    '<p id="shown" data-var-text="t">authored</p>' +
    '<script data-var-text="t"></script><script type="module" data-var-text="t"></script>' +
    '<svg width="1" height="1"><script data-var-text="t"></script><style data-var-text="css"></style></svg>' +
    '<style data-var-text="css">/* authored */</style>';
  const REFUSED_IN_BODY = 5;
  const payload = (label: string) =>
    `parent.postMessage(${JSON.stringify(`${MARKER} ${label}`)}, '*'); throw new Error(${JSON.stringify(`${MARKER} ${label}`)});`;
  const css = (label: string) => `@import url("${trapUrl(`preview-${label}.css`)}"); #shown { color: rgb(1, 2, 3); }`;

  const markers: string[] = [];
  const onMessage = (event: MessageEvent) => {
    if (typeof event.data === 'string' && event.data.startsWith(MARKER)) markers.push(event.data);
  };
  beforeEach(() => {
    markers.length = 0;
    window.addEventListener('message', onMessage);
  });
  afterEach(() => window.removeEventListener('message', onMessage));

  const refusedIssues = (issues: readonly Issue[]) =>
    issues.filter((found) => found.code === BindingIssueCode.tagNotAllowed).map((found) => found.path.join('/'));

  it('refuses them at load and on a live update: no script_error, no posted marker, no @import', async function () {
    this.timeout(30_000); // a frame load and a live update on a busy machine
    const srcdoc = compositionHtml({ variables: declarations, body });
    const el = mount({ variables: JSON.stringify({ t: payload('load'), css: css('load') }) }, { srcdoc });
    const errors: string[] = [];
    el.addEventListener('error', (event) => errors.push(event.detail.code));
    const first = nextEvent<CustomEvent<{ issues: Issue[] }>>(el, 'variableschange');
    await whenReady(el);
    const loaded = (await first).detail;
    expect(refusedIssues(loaded.issues)).to.have.length(REFUSED_IN_BODY);
    expect(refusedIssues(loaded.issues)).to.include.members(['data-var-text/t', 'data-var-text/css']);
    // The inert binding next to them still shows the value: it did arrive.
    expect(await probe(el, { ask: 'text', selector: '#shown' })).to.equal(payload('load'));

    const change = nextEvent<CustomEvent<{ issues: Issue[] }>>(el, 'variableschange');
    el.variables = { t: payload('update'), css: css('update') };
    expect(refusedIssues((await change).detail.issues)).to.have.length(REFUSED_IN_BODY);

    await sleep(SETTLE_MS);
    expect(errors).to.deep.equal([]);
    expect(markers).to.deep.equal([]);
    expect((await requested()).filter((path) => path.includes('/preview-'))).to.deep.equal([]);
    expect(await probe(el, { ask: 'texts', selector: 'script[data-var-text], style[data-var-text]' })).to.deep.equal([
      '',
      '',
      '',
      '',
      '/* authored */',
    ]);
    expect(await probe(el, { ask: 'style', selector: '#shown', property: 'color' })).to.not.equal('rgb(1, 2, 3)');
  });
});
