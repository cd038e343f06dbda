// Issue 8, items 7 and 9: what the compiled document hands a composition. The frame's <base> must not carry the
// host URL's query or fragment (tokens); a sub-composition's wrapped script must not read the top level's
// overrides; a sub-composition's global CSS names must not replace its parent's.
import { expect } from '@open-wc/testing';
import { compileComposition, type CompiledComposition } from '../../src/runtime/compile/compile.js';
import { openCompiled } from '../runtime/compiled-frame.js';
import { fontFamilyNames } from '../browsers.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const BASE = new URL('/virtual/', location.href).href;
const TYPES: Record<string, string> = { css: 'text/css', js: 'text/javascript' };

function compile(
  files: Record<string, string>,
  entry: string | { html: string; url: string },
  overrides: Record<string, unknown> = {},
): Promise<CompiledComposition> {
  const fetch = (async (input: RequestInfo | URL) => {
    const url = String(input).split('?')[0]!;
    const body = files[url.slice(BASE.length)];
    if (body === undefined) return new Response('', { status: 404 });
    return new Response(body, { headers: { 'content-type': TYPES[url.split('.').pop()!] ?? 'text/html' } });
  }) as typeof globalThis.fetch;
  return compileComposition(entry, { runtimeUrl: RUNTIME_URL, fetch, overrides });
}

const markup = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body><div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1">${body}</div></body></html>`;

describe('compiled <base> (item 7)', () => {
  it('a markup entry standing at a host URL with a query and fragment: the <base> has neither', async () => {
    const url = `${BASE}page.html?token=s3cret&session=abc#access_token=s3cret`;
    const compiled = await compile({}, { html: markup(''), url });
    expect(compiled.html).not.to.include('s3cret');
    const view = await openCompiled(compiled);
    expect(view.document.baseURI).to.equal(`${BASE}page.html`);
  });

  it('a URL entry with a query, and a document <base href> with one: neither reaches the frame', async () => {
    const files = { 'index.html': markup('', '<base href="kit/?token=s3cret">') };
    const compiled = await compile(files, `${BASE}index.html?token=s3cret`);
    expect(compiled.html).not.to.include('s3cret');
    expect(
      new DOMParser().parseFromString(compiled.html, 'text/html').querySelector('base')!.getAttribute('href'),
    ).to.equal(`${BASE}kit/`);
  });
});

describe('top-level overrides stay out of sub-composition scripts (item 9)', () => {
  const probe = `<script>
    document.currentScript.parentElement.setAttribute('data-seen', JSON.stringify([
      typeof window.__fxVariables, typeof __fxVariables, typeof self.__fxVariables, typeof globalThis.__fxVariables,
      typeof window.window.__fxVariables, typeof self.self.__fxVariables, typeof window.frames.__fxVariables,
      '__fxVariables' in window, document.getElementById('fx-config') === null,
    ]));
  </script>`;

  it('window.__fxVariables, a bare __fxVariables, its aliases and the config element are gone inside an instance', async () => {
    const files = {
      'index.html': markup(
        `<div id="s" data-composition-src="s.html"></div><p id="top"></p><script>document.getElementById('top').textContent = window.__fxVariables.secret;</script>`,
      ),
      's.html': `<template><div data-composition-id="s">${probe}</div></template>`,
    };
    const compiled = await compile(files, `${BASE}index.html`, { secret: 'OVERRIDE' });
    const view = await openCompiled(compiled);
    expect(JSON.parse(view.document.getElementById('s')!.getAttribute('data-seen')!)).to.deep.equal([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      false,
      true,
    ]);
    // The top level still reads them.
    expect(view.document.getElementById('top')!.textContent).to.equal('OVERRIDE');
  });
});

describe('a sub-composition’s @property does not retype a name its parent uses unregistered', () => {
  const files = {
    'index.html': markup(
      '<p id="top">top</p><div id="a" data-composition-src="s.html"></div><div id="b" data-composition-src="s.html"></div>',
      '<style>#top { --accent: rgb(0, 0, 255); color: var(--accent); }</style>',
    ),
    's.html': `<template><div data-composition-id="s"><p class="s">s</p></div><style>
      @property --accent { syntax: '<length>'; inherits: true; initial-value: 0px; }
      .s { --accent: 5px; height: var(--accent); }
    </style></template>`,
  };

  it('the parent keeps its color; each instance keeps its typed length', async () => {
    const view = await openCompiled(await compile(files, `${BASE}index.html`));
    expect(view.getComputedStyle(view.document.getElementById('top')!).color).to.equal('rgb(0, 0, 255)');
    for (const id of ['a', 'b'])
      expect(view.getComputedStyle(view.document.querySelector(`#${id} .s`)!).height).to.equal('5px');
  });
});

describe('a sub-composition’s @keyframes, @property and @font-face do not replace its parent’s (item 9)', () => {
  const parentCss = `<style>
    @keyframes fill { from, to { background-color: rgb(0, 0, 255); } }
    @property --accent { syntax: '<color>'; inherits: true; initial-value: rgb(9, 9, 9); }
    @property --size { syntax: '<number>'; inherits: true; initial-value: 1; }
    @font-face { font-family: Brand; src: url(data:font/ttf;base64,AAEAAA==); }
    #top { animation: fill 1s paused; --accent: rgb(0, 0, 255); color: var(--accent); --size: 3; width: calc(var(--size) * 1px); font-family: Brand, serif; }
  </style>`;
  const SIZE = [{ id: 'size', type: 'number', label: 'Size', default: 7 }];
  const sub = `<template><div data-composition-id="s" data-composition-variables='${JSON.stringify(SIZE)}'><p class="s">s</p><p class="inline" style="animation: fill 1s paused; font-family: Brand">i</p></div><style>
      @keyframes fill { from, to { background-color: rgb(255, 0, 0); } }
      @property --accent { syntax: '<length>'; inherits: true; initial-value: 0px; }
      @property --size { syntax: '<number>'; inherits: true; initial-value: 0; }
      @font-face { font-family: Brand; src: url(data:font/ttf;base64,AAEAAB==); }
      @keyframes own { to { opacity: 0; } }
      .s { animation: fill 1s paused; --accent: 5px; height: var(--accent); width: calc(var(--size) * 1px); font: 12px Brand, serif; }
    </style></template>`;
  const files = {
    'index.html': markup(
      '<p id="top">top</p><div id="a" data-composition-src="s.html"></div><div id="b" data-composition-src="s.html"></div>',
      parentCss,
    ),
    's.html': sub,
  };

  it('the parent keeps its keyframes, typed custom properties and font family', async () => {
    const view = await openCompiled(await compile(files, `${BASE}index.html`));
    const top = view.getComputedStyle(view.document.getElementById('top')!);
    expect(top.backgroundColor).to.equal('rgb(0, 0, 255)');
    expect(top.color).to.equal('rgb(0, 0, 255)');
    expect(top.width).to.equal('3px');
  });

  it('the sub-composition gets its own, under names of its instance, declared variables included', async () => {
    const compiled = await compile(files, `${BASE}index.html`);
    const view = await openCompiled(compiled);
    for (const id of ['a', 'b']) {
      const s = view.getComputedStyle(view.document.querySelector(`#${id} .s`)!);
      expect(s.backgroundColor).to.equal('rgb(255, 0, 0)');
      expect(s.height).to.equal('5px');
      expect(s.width, 'the declared "size" (7) reaches the renamed --size').to.equal('7px');
      expect(fontFamilyNames(s.fontFamily)).to.deep.equal([`fx-s-${id === 'a' ? 1 : 2}-Brand`, 'serif']);
      expect(view.getComputedStyle(view.document.querySelector(`#${id} .inline`)!).backgroundColor).to.equal(
        'rgb(255, 0, 0)',
      );
    }
    // A name only the sub-composition defines keeps it: the same source mounted twice is one definition.
    expect(compiled.html.match(/@keyframes own/g)).to.have.length(2);
    expect(compiled.html).not.to.include('fx-s-1-own');
  });
});
