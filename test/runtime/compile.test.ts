import { expect } from '@open-wc/testing';
import {
  compileComposition,
  CompileIssueCode,
  withOverrides,
  type CompileOptions,
  type CompiledComposition,
} from '../../src/runtime/compile/compile.js';
import { isFxError } from '../../src/runtime/errors.js';
import { FrameAttr } from '../../src/runtime/frame-config.js';
import { scopeCss } from '../../src/runtime/compile/css.js';
import { openCompiled } from './compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
// A folder of the test server nobody serves: every file comes from the injected fetch.
const BASE = new URL('/virtual/', location.href).href;
const at = (path: string) => new URL(path, BASE).href;
/** The content type a static server gives a path: the compiler checks it per role. */
const typeOf = (url: string) =>
  ({ css: 'text/css', js: 'text/javascript' })[url.split('?')[0]!.split('.').pop()!] ?? 'text/html';
/** A 200 response typed for `url`. */
const typed = (url: string, body: string) => new Response(body, { headers: { 'content-type': typeOf(url) } });

/** A fetch over a map of path → body (or Response); anything else answers 404. Records what was asked. */
function filesFetch(
  files: Record<string, string | (() => Response | Promise<Response>)>,
  asked: string[] = [],
): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(init?.method === 'HEAD' ? `HEAD ${url}` : url);
    const path = url.startsWith(BASE) ? url.slice(BASE.length) : url;
    const file = files[path];
    if (file === undefined) return new Response('not here', { status: 404 });
    return typeof file === 'string' ? typed(url, file) : file();
  };
}

function compile(
  files: Record<string, string | (() => Response | Promise<Response>)>,
  options: Partial<CompileOptions> = {},
  entry = 'index.html',
): Promise<CompiledComposition> {
  return compileComposition(at(entry), { runtimeUrl: RUNTIME_URL, fetch: filesFetch(files), ...options });
}

async function compileError(
  files: Record<string, string | (() => Response)>,
  options: Partial<CompileOptions> = {},
): Promise<string> {
  try {
    await compile(files, options);
  } catch (error) {
    if (isFxError(error)) return error.code;
    throw error;
  }
  throw new Error('expected the compile to fail');
}

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const entry = (body: string, head = '', declarations?: unknown[]) =>
  `<!doctype html><html${declarations ? ` data-composition-variables='${JSON.stringify(declarations)}'` : ''}><head>${head}</head><body>` +
  `<div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="2">${body}</div></body></html>`;
const NAME = [{ id: 'name', type: 'string', label: 'Name', default: 'Nobody' }];
const card = (extra = '') =>
  `<template><div data-composition-id="card" data-duration="1" data-composition-variables='${JSON.stringify(NAME)}'>` +
  `<p class="name" data-var-text="name">x</p>${extra}</div></template>`;

describe('compileComposition: inlining', () => {
  it('inlines a sub-composition into its host and injects the runtime and config first in <head>', async () => {
    const { html, issues } = await compile({
      'index.html': entry('<div id="host" data-composition-src="card.html"></div>'),
      'card.html': card(),
    });
    expect(issues).to.deep.equal([]);
    const doc = parse(html);
    const host = doc.getElementById('host')!;
    expect(host.getAttribute(FrameAttr.instance)).to.equal('card-1');
    expect(host.getAttribute('data-composition-id')).to.equal('card');
    expect(host.getAttribute('data-duration')).to.equal('1');
    expect(host.querySelector('p.name')?.textContent).to.equal('x');
    const head = [...doc.head.children].map((element) => element.localName + (element.id ? `#${element.id}` : ''));
    expect(head.slice(0, 4)).to.deep.equal(['meta', 'base', 'script#fx-config', 'script']);
    expect(doc.head.children[3]!.getAttribute('src')).to.equal(RUNTIME_URL);
    expect(doc.querySelector('base')!.getAttribute('href')).to.equal(at('index.html'));
  });

  it('writes the config: root size, duration, fps, overrides and the HyperFrames aliases (on by default)', async () => {
    const { html, metadata } = await compile(
      { 'index.html': entry('') },
      { overrides: { title: '</script><b>' }, fps: 25 },
    );
    const config = JSON.parse(parse(html).getElementById('fx-config')!.textContent!);
    expect(config).to.deep.equal({
      version: 1,
      compositionId: 'main',
      duration: 2,
      durationFromTimeline: false,
      width: 320,
      height: 180,
      fps: 25,
      overrides: { title: '</script><b>' },
      aliases: true,
    });
    expect(html).not.to.include('</script><b>');
    expect([metadata.id, metadata.width, metadata.height, metadata.duration]).to.deep.equal(['main', 320, 180, 2]);
  });

  it('a template entry without data-duration whose script registers its timeline: the frame measures it', async () => {
    const block = `<template><div data-composition-id="block" data-width="320" data-height="180">
      <script>window.__timelines = window.__timelines || {}; window.__timelines.block = tl;</script></div></template>`;
    const { html, metadata, issues } = await compile({ 'index.html': block });
    const config = JSON.parse(parse(html).getElementById('fx-config')!.textContent!);
    expect([config.duration, config.durationFromTimeline]).to.deep.equal([0, true]);
    expect([metadata.duration, metadata.durationSource]).to.deep.equal([undefined, 'timeline']);
    expect(metadata.issues.map((found) => [found.code, found.severity])).to.deep.equal([
      ['composition_duration_from_timeline', 'warning'],
    ]);
    expect(issues).to.deep.equal([]);
  });

  it('a template entry without data-duration and no script is composition_duration_missing', async () => {
    const block = `<template><div data-composition-id="block" data-width="320" data-height="180"></div></template>`;
    const { html, metadata, issues } = await compile({ 'index.html': block });
    expect(JSON.parse(parse(html).getElementById('fx-config')!.textContent!).durationFromTimeline).to.equal(false);
    expect(metadata.durationSource).to.equal(undefined);
    expect(issues.map((found) => found.code)).to.deep.equal(['composition_duration_missing']);
  });

  it('swaps only the overrides into a compiled document: the same document a compile with them writes', async () => {
    const files = {
      'index.html': entry(card(), '', NAME).replace('</div></body>', '<script>/* fx-config */</script></div></body>'),
    };
    const before = await compile(files, { overrides: { name: 'First' } });
    const hostile = { name: '</script><script>parent.x=1</script>', nested: { a: [1, '<!--'] } };
    const swapped = withOverrides(before, hostile);
    expect(swapped.html).to.equal((await compile(files, { overrides: hostile })).html);
    expect(withOverrides(swapped, { name: 'First' }).html).to.equal(before.html);
    expect(JSON.parse(swapped.html.slice(swapped.configSpan.start, swapped.configSpan.end)).overrides).to.deep.equal(
      hostile,
    );
    expect(swapped.html).not.to.include('</script><script>parent');
    expect(parse(swapped.html).querySelectorAll('script')).to.have.length(
      parse(before.html).querySelectorAll('script').length,
    );
  });

  describe('the entry’s own classic scripts', () => {
    const body =
      `<script>window.order = ['before'];</script><script src="anim.js"></script>` +
      `<script>window.order.push('after');</script>` +
      `<script src="missing.js"></script><script src="later.js" defer></script><script src="mod.js" type="module"></script>` +
      `<script src="pinned.js" integrity="sha384-x"></script><script src="https://cdn.example/lib.js"></script>`;
    const files = {
      'index.html': entry(body),
      'anim.js': `window.order.push('anim'); window.closer = '</script><b>';`,
      'later.js': '',
      'mod.js': '',
      'pinned.js': '',
    };
    const scriptSources = (compiled: CompiledComposition) =>
      [...parse(compiled.html).querySelectorAll('script[src]')].map((script) => script.getAttribute('src'));
    const LEFT = ['missing.js', 'later.js', 'mod.js', 'pinned.js', 'https://cdn.example/lib.js'];

    it('are inlined with an inline runtime (the frame has no HTTP cache), in order; the rest are left', async () => {
      const runtimeScript = await (await fetch(RUNTIME_URL)).text();
      const asked: string[] = [];
      const compiled = await compileComposition(at('index.html'), { runtimeScript, fetch: filesFetch(files, asked) });
      expect(scriptSources(compiled)).to.deep.equal(LEFT);
      // The files left are asked for with HEAD by the missing-file check (compile-files.test.ts).
      const read = asked.filter((url) => !url.endsWith('index.html') && !url.startsWith('HEAD '));
      expect(read.sort()).to.deep.equal([at('anim.js'), at('missing.js')]);
      expect(compiled.dependencies).to.include(at('anim.js'));
      const left = new RegExp(
        `<script src="(${LEFT.map((src) => src.replace(/[./]/g, '\\$&')).join('|')})"[^>]*></script>`,
        'g',
      );
      const view = await openCompiled({ ...compiled, html: compiled.html.replace(left, '') });
      expect((view as unknown as { order: string[] }).order).to.deep.equal(['before', 'anim', 'after']);
      expect((view as unknown as { closer: string }).closer).to.equal('</script><b>');
    });

    it('stay external with a runtime URL: that page may forbid inline scripts', async () => {
      const compiled = await compile(files);
      expect(scriptSources(compiled)).to.deep.equal([RUNTIME_URL, 'anim.js', ...LEFT]);
    });
  });

  it('gives each instance of one source its own id and its own values', async () => {
    const body =
      `<div class="c" data-composition-src="card.html" data-variable-values='{"name":"Ada"}'></div>` +
      `<div class="c" data-composition-src="card.html" data-variable-values='{"name":"Grace"}'></div>` +
      `<div class="c" data-composition-src="card.html"></div>`;
    const compiled = await compile({ 'index.html': entry(body), 'card.html': card() });
    const hosts = [...parse(compiled.html).querySelectorAll('.c')];
    expect(hosts.map((host) => host.getAttribute(FrameAttr.instance))).to.deep.equal(['card-1', 'card-2', 'card-3']);
    const view = await openCompiled(compiled);
    expect([...view.document.querySelectorAll('.c .name')].map((p) => p.textContent)).to.deep.equal([
      'Ada',
      'Grace',
      'Nobody',
    ]);
  });

  it('runs wrapped instance scripts with that instance’s getVariables()', async () => {
    const script = `<script>document.currentScript.parentElement.setAttribute('data-seen', JSON.stringify(window.__fx.getVariables()));</script>`;
    const body =
      `<div class="c" data-composition-src="card.html" data-variable-values='{"name":"Ada"}'></div>` +
      `<div class="c" data-composition-src="card.html" data-variable-values='{"name":"Grace"}'></div>`;
    const compiled = await compile({ 'index.html': entry(body), 'card.html': card(script) });
    const wrapped = parse(compiled.html).querySelectorAll(`script[${FrameAttr.instanceScript}]`);
    expect([...wrapped].map((element) => element.getAttribute(FrameAttr.instanceScript))).to.deep.equal([
      'card-1',
      'card-2',
    ]);
    const view = await openCompiled(compiled);
    const seen = [...view.document.querySelectorAll('.c')].map((host) => JSON.parse(host.getAttribute('data-seen')!));
    expect(seen).to.deep.equal([{ name: 'Ada' }, { name: 'Grace' }]);
  });

  it('inlines and wraps an external instance script fetched relative to the sub-composition', async () => {
    const compiled = await compile({
      'index.html': entry(
        `<div class="c" data-composition-src="parts/card.html" data-variable-values='{"name":"Ada"}'></div>`,
      ),
      'parts/card.html': card('<script src="card.js"></script>'),
      'parts/card.js': `document.querySelector('.c').setAttribute('data-seen', window.__fx.getVariables().name);`,
    });
    const script = parse(compiled.html).querySelector(`script[${FrameAttr.instanceScript}]`)!;
    expect(script.hasAttribute('src')).to.equal(false);
    const view = await openCompiled(compiled);
    expect(view.document.querySelector('.c')!.getAttribute('data-seen')).to.equal('Ada');
  });

  it('takes a full-document sub-composition: its body root, declarations on <html>, styles and trailing scripts', async () => {
    const sub =
      `<!doctype html><html data-composition-variables='${JSON.stringify(NAME)}'><head><style>.n { color: rgb(255, 0, 0); }</style></head>` +
      `<body><div data-composition-id="doc" data-duration="1.5"><p class="n" data-var-text="name">x</p></div>` +
      `<script>document.currentScript.parentElement.setAttribute('data-seen', window.__fx.getVariables().name);</script></body></html>`;
    const compiled = await compile({
      'index.html': entry(`<div id="h" data-composition-src="doc.html" data-variable-values='{"name":"Doc"}'></div>`),
      'doc.html': sub,
    });
    const host = parse(compiled.html).getElementById('h')!;
    expect(host.getAttribute('data-composition-id')).to.equal('doc');
    expect(host.getAttribute(FrameAttr.instance)).to.equal('doc-1');
    expect(host.getAttribute('data-duration')).to.equal('1.5');
    expect(JSON.parse(host.getAttribute('data-composition-variables')!)[0].id).to.equal('name');
    const view = await openCompiled(compiled);
    const inside = view.document.getElementById('h')!;
    expect(inside.querySelector('.n')!.textContent).to.equal('Doc');
    expect(view.getComputedStyle(inside.querySelector('.n')!).color).to.equal('rgb(255, 0, 0)');
    expect(inside.getAttribute('data-seen')).to.equal('Doc');
  });

  it('takes a template sub-composition and a sub-composition without a root (its body)', async () => {
    const compiled = await compile({
      'index.html': entry(
        `<div id="t" data-composition-src="t.html"></div><div id="b" data-composition-src="b.html"></div>`,
      ),
      't.html': card(),
      'b.html': '<p class="plain">just a body</p>',
    });
    const doc = parse(compiled.html);
    expect(doc.querySelector('#t .name')?.textContent).to.equal('x');
    expect(doc.querySelector('#b .plain')?.textContent).to.equal('just a body');
    expect(doc.getElementById('b')!.getAttribute(FrameAttr.instance)).to.equal('composition-2');
    expect(compiled.issues).to.deep.equal([]);
  });

  it('inlines nested sub-compositions relative to the file naming them', async () => {
    const compiled = await compile({
      'index.html': entry('<div id="outer" data-composition-src="a/outer.html"></div>'),
      'a/outer.html':
        '<template><div data-composition-id="outer"><div id="inner" data-composition-src="b/inner.html"></div></div></template>',
      'a/b/inner.html': '<template><div data-composition-id="inner"><span class="deep">deep</span></div></template>',
    });
    const doc = parse(compiled.html);
    expect(doc.querySelector('#outer #inner .deep')?.textContent).to.equal('deep');
    expect(doc.getElementById('inner')!.getAttribute(FrameAttr.instance)).to.equal('inner-2');
  });

  it('compiles an entry given as markup, with relative paths against its url', async () => {
    const compiled = await compileComposition(
      { html: entry('<div id="h" data-composition-src="card.html"></div>'), url: at('index.html') },
      { runtimeUrl: RUNTIME_URL, fetch: filesFetch({ 'card.html': card() }) },
    );
    expect(parse(compiled.html).querySelector('#h .name')?.textContent).to.equal('x');
  });

  it('lifts a template entry root into the body', async () => {
    const compiled = await compile({
      'index.html':
        '<template><div data-composition-id="t" data-duration="3"><p id="p">in template</p></div></template>',
    });
    const doc = parse(compiled.html);
    expect(doc.body.querySelector('#p')?.textContent).to.equal('in template');
    expect(compiled.metadata.duration).to.equal(3);
  });

  // The renderer refuses such an entry with this code; the element turns error issues into an `error` event.
  const missingDuration = (got: string) => ({
    code: 'composition_duration_missing',
    severity: 'error',
    path: ['data-duration'],
    message: `the composition's root needs a positive "data-duration" in seconds; ${got}`,
  });
  for (const [name, html, got] of [
    ['no data-duration', '<div data-composition-id="m" data-width="320" data-height="180"></div>', 'it has none'],
    ['data-duration="0"', '<div data-composition-id="m" data-duration="0"></div>', 'got "0"'],
    ['a template entry without one', '<template><div data-composition-id="t"></div></template>', 'it has none'],
  ] as const) {
    it(`an entry with ${name}: a "composition_duration_missing" issue, once, and the document still compiles`, async () => {
      const compiled = await compile({ 'index.html': html });
      expect(compiled.issues).to.deep.equal([missingDuration(got)]);
      expect(compiled.metadata.issues.map((found) => found.code)).not.to.include('composition_duration_missing');
      expect(compiled.metadata.duration).to.equal(undefined);
      expect(compiled.html).to.contain('data-composition-id');
    });
  }

  it('stamps a nonce on every script and style', async () => {
    const compiled = await compile(
      {
        'index.html': entry('<script>1</script><div data-composition-src="card.html"></div>', '<style>p{}</style>'),
        'card.html': card('<script>2</script>'),
      },
      { nonce: 'n0nce' },
    );
    const doc = parse(compiled.html);
    const elements = [...doc.querySelectorAll('script, style')];
    expect(elements.length).to.equal(6);
    expect(elements.every((element) => element.getAttribute('nonce') === 'n0nce')).to.equal(true);
  });
});

describe('compileComposition: the runtime', () => {
  it('names runtimeUrl in a <script src> whose load failure is posted to the parent', async () => {
    const doc = parse((await compile({ 'index.html': entry('') })).html);
    const runtime = doc.head.querySelector(`script[src="${RUNTIME_URL}"]`);
    expect(runtime?.getAttribute('onerror')).to.contain('fx:runtime-failed');
  });

  it('writes runtimeScript inline instead (with the nonce, and inert to "</script")', async () => {
    const runtimeScript = 'window.__ran = "</script><p id=escaped>";';
    const compiled = await compile(
      { 'index.html': entry('') },
      { runtimeUrl: undefined, runtimeScript, nonce: 'n0nce' },
    );
    const doc = parse(compiled.html);
    expect(doc.querySelector('script[src]')).to.equal(null);
    expect(doc.querySelector('#escaped')).to.equal(null);
    const inline = [...doc.head.querySelectorAll('script:not([type])')];
    expect(inline.length).to.equal(1);
    expect(inline[0]!.getAttribute('nonce')).to.equal('n0nce');
  });

  it('runs the real runtime written inline', async () => {
    const runtimeScript = await (await fetch(RUNTIME_URL)).text();
    const compiled = await compile(
      { 'index.html': entry('<p id="p">hi</p>') },
      { runtimeUrl: undefined, runtimeScript },
    );
    const view = await openCompiled(compiled);
    expect(view.__fx.duration).to.equal(2);
  });

  it('neither runtimeUrl nor runtimeScript: "compile_options_invalid"', async () => {
    expect(await compileError({ 'index.html': entry('') }, { runtimeUrl: undefined })).to.equal(
      CompileIssueCode.optionsInvalid,
    );
  });
});

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

describe('compileComposition: asset URLs', () => {
  it('rewrites relative asset URLs of a sub-composition in a subfolder against its own URL', async () => {
    const sub =
      '<template><div data-composition-id="s">' +
      '<img id="i" src="./img.png" srcset="img.png 1x, ../big.png 2x" alt="">' +
      '<video id="v" poster="poster.jpg"><source id="src" src="clip.webm"></video>' +
      '<div id="st" style="background: url(\'bg.png\')"></div>' +
      '<img id="keep" src="data:image/png;base64,iVBORw0KGgo=" alt=""><a id="hash" href="#here">x</a><img id="abs" src="https://cdn.example/x.png" alt="">' +
      '</div><style>.s { background: url(tile.png); }</style></template>';
    const { html } = await compile({
      'index.html': entry('<img id="own" src="own.png" alt=""><div data-composition-src="parts/sub.html"></div>'),
      'parts/sub.html': sub,
    });
    const doc = parse(html);
    const attr = (selector: string, name: string) => doc.querySelector(selector)!.getAttribute(name);
    expect(attr('#i', 'src')).to.equal(at('parts/img.png'));
    expect(attr('#i', 'srcset')).to.equal(`${at('parts/img.png')} 1x, ${at('big.png')} 2x`);
    expect(attr('#v', 'poster')).to.equal(at('parts/poster.jpg'));
    expect(attr('#src', 'src')).to.equal(at('parts/clip.webm'));
    expect(attr('#st', 'style')).to.include(at('parts/bg.png'));
    expect(attr('#keep', 'src')).to.equal('data:image/png;base64,iVBORw0KGgo=');
    expect(attr('#hash', 'href')).to.equal('#here');
    expect(attr('#abs', 'src')).to.equal('https://cdn.example/x.png');
    expect(doc.querySelector(`style[${FrameAttr.instanceStyle}]`)!.textContent).to.include(at('parts/tile.png'));
    // The entry's own relative URLs stay relative: <base> resolves them against the entry.
    expect(attr('#own', 'src')).to.equal('own.png');
  });
});

describe('compileComposition: image variable values', () => {
  const IMAGES = [
    { id: 'relative', type: 'image', label: 'R', default: 'img/photo.png' },
    { id: 'object', type: 'image', label: 'O', default: { url: 'img/o.png' } },
    { id: 'absolute', type: 'image', label: 'A', default: 'https://cdn.example/a.png' },
    { id: 'data', type: 'image', label: 'D', default: 'data:image/png;base64,iVBORw0KGgo=' },
    { id: 'refused', type: 'image', label: 'J', default: 'javascript:alert(1)' },
    { id: 'name', type: 'string', label: 'N', default: 'img/not-a-url.png' },
  ];
  const sub = (inner = '') =>
    `<template><div data-composition-id="s" data-composition-variables='${JSON.stringify(IMAGES)}'>${inner}</div></template>`;

  it('resolves relative image defaults of a sub-composition against its URL, and nothing else', async () => {
    const { html } = await compile({
      'index.html': entry('<div id="h" data-composition-src="parts/s.html"></div>'),
      'parts/s.html': sub(),
    });
    const declared = JSON.parse(parse(html).getElementById('h')!.getAttribute('data-composition-variables')!) as {
      id: string;
      default: unknown;
    }[];
    expect(Object.fromEntries(declared.map((declaration) => [declaration.id, declaration.default]))).to.deep.equal({
      relative: at('parts/img/photo.png'),
      object: { url: at('parts/img/o.png') },
      absolute: 'https://cdn.example/a.png',
      data: 'data:image/png;base64,iVBORw0KGgo=',
      refused: 'javascript:alert(1)',
      name: 'img/not-a-url.png',
    });
  });

  it('resolves relative image host values against the file that names the host', async () => {
    const { html } = await compile({
      'index.html': entry('<div data-composition-src="a/outer.html"></div>'),
      'a/outer.html': `<template><div data-composition-id="outer"><div id="h" data-composition-src="b/s.html" data-variable-values='{"relative":"pics/x.png","name":"pics/y.png"}'></div></div></template>`,
      'a/b/s.html': sub(),
    });
    const values = JSON.parse(parse(html).getElementById('h')!.getAttribute('data-variable-values')!);
    expect(values).to.deep.equal({ relative: at('a/pics/x.png'), name: 'pics/y.png' });
  });

  it('leaves declarations and values with nothing to resolve as authored, byte for byte', async () => {
    const declarations = `[ {"id": "photo", "type": "image", "label": "P", "default": "https://cdn.example/p.png"} ]`;
    const values = `{ "photo": "data:image/png;base64,iVBORw0KGgo=" }`;
    const { html } = await compile({
      'index.html': entry(`<div id="h" data-composition-src="s.html" data-variable-values='${values}'></div>`),
      's.html': `<template><div data-composition-id="s" data-composition-variables='${declarations}'></div></template>`,
    });
    const host = parse(html).getElementById('h')!;
    expect(host.getAttribute('data-composition-variables')).to.equal(declarations);
    expect(host.getAttribute('data-variable-values')).to.equal(values);
  });

  it('leaves malformed declarations and values as written, for the runtime to report', async () => {
    const { html } = await compile({
      'index.html': entry(`<div id="h" data-composition-src="s.html" data-variable-values='{oops'></div>`),
      's.html': `<template><div data-composition-id="s" data-composition-variables='[not json'></div></template>`,
    });
    const host = parse(html).getElementById('h')!;
    expect(host.getAttribute('data-composition-variables')).to.equal('[not json');
    expect(host.getAttribute('data-variable-values')).to.equal('{oops');
  });
});

describe('compileComposition: root duration', () => {
  it('is fixed at compile time: a script rewriting data-duration changes nothing', async () => {
    const script = `<script>document.getElementById('root').setAttribute('data-duration', '10'); document.documentElement.setAttribute('data-duration', '10');</script>`;
    const view = await openCompiled(await compile({ 'index.html': entry(script) }));
    expect(view.document.getElementById('root')!.getAttribute('data-duration')).to.equal('10');
    expect(view.__fx.duration).to.equal(2);
    expect(await view.__fx.seek(5)).to.equal(2);
  });
});

describe('compileComposition: guards', () => {
  const codeOfIssue = async (
    files: Record<string, string | (() => Response)>,
    options: Partial<CompileOptions> = {},
  ) => {
    const { issues, html } = await compile(files, options);
    return { codes: issues.map((found) => found.code), paths: issues.map((found) => found.path), doc: parse(html) };
  };

  it('a missing sub-composition: "project_file_missing", reported with its path, the rest compiles', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry(
        '<div id="ok" data-composition-src="card.html"></div><div id="gone" data-composition-src="missing.html"><p>placeholder</p></div>',
      ),
      'card.html': card(),
    });
    expect(codes).to.deep.equal([CompileIssueCode.fileMissing]);
    expect(paths).to.deep.equal([['missing.html']]);
    expect(doc.getElementById('gone')!.getAttribute(FrameAttr.error)).to.equal('project_file_missing');
    expect(doc.getElementById('gone')!.children.length).to.equal(0);
    expect(doc.querySelector('#ok .name')?.textContent).to.equal('x');
  });

  it('a nested broken sub-composition is reported with the chain that includes it', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry('<div id="a" data-composition-src="a.html"></div>'),
      'a.html':
        '<template><div data-composition-id="a"><span id="kept">kept</span><div id="x" data-composition-src="missing.html"></div></div></template>',
    });
    expect(codes).to.deep.equal(['project_file_missing']);
    // Nested names were resolved when their parent was inlined, so the chain is absolute past the entry.
    expect(paths).to.deep.equal([[at('a.html'), at('missing.html')]]);
    expect(doc.getElementById('kept')?.textContent).to.equal('kept');
  });

  it('a fetch that fails outright: "subcomposition_not_found"', async () => {
    const { codes } = await codeOfIssue({
      'index.html': entry('<div data-composition-src="down.html"></div>'),
      'down.html': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(codes).to.deep.equal(['subcomposition_not_found']);
  });

  for (const [name, body] of [
    ['empty', ''],
    ['blank', '  \n\t '],
  ] as const) {
    it(`an ${name} sub-composition: "subcomposition_empty"`, async () => {
      const { codes } = await codeOfIssue({
        'index.html': entry('<div data-composition-src="e.html"></div>'),
        'e.html': body,
      });
      expect(codes).to.deep.equal(['subcomposition_empty']);
    });
  }

  it('a sub-composition with no root and no content: "subcomposition_invalid"', async () => {
    const { codes } = await codeOfIssue({
      'index.html': entry('<div data-composition-src="c.html"></div>'),
      'c.html': '<!-- nothing but a comment -->',
    });
    expect(codes).to.deep.equal(['subcomposition_invalid']);
  });

  it('a cycle a → b → a: "subcomposition_cycle", a and b still compile', async () => {
    const { codes, paths, doc } = await codeOfIssue({
      'index.html': entry('<div id="a" data-composition-src="a.html"></div>'),
      'a.html':
        '<template><div data-composition-id="a"><i id="in-a">a</i><div id="b" data-composition-src="b.html"></div></div></template>',
      'b.html':
        '<template><div data-composition-id="b"><i id="in-b">b</i><div id="again" data-composition-src="a.html"></div></div></template>',
    });
    expect(codes).to.deep.equal(['subcomposition_cycle']);
    expect(paths).to.deep.equal([[at('a.html'), at('b.html'), at('a.html')]]);
    expect(doc.getElementById('in-a')?.textContent).to.equal('a');
    expect(doc.getElementById('in-b')?.textContent).to.equal('b');
    expect(doc.getElementById('again')!.getAttribute(FrameAttr.error)).to.equal('subcomposition_cycle');
  });

  it('a sub-composition including the entry: "subcomposition_cycle"', async () => {
    const { codes } = await codeOfIssue({ 'index.html': entry('<div data-composition-src="index.html"></div>') });
    expect(codes).to.deep.equal(['subcomposition_cycle']);
  });

  const chain = (levels: number) => {
    const files: Record<string, string> = { 'index.html': entry('<div data-composition-src="l1.html"></div>') };
    for (let level = 1; level <= levels; level += 1) {
      const next = level < levels ? `<div data-composition-src="l${level + 1}.html"></div>` : '';
      files[`l${level}.html`] =
        `<template><div data-composition-id="l${level}"><b id="b${level}">${level}</b>${next}</div></template>`;
    }
    return files;
  };

  it('nesting up to the depth limit compiles', async () => {
    const { codes, doc } = await codeOfIssue(chain(3), { limits: { depth: 3 } });
    expect(codes).to.deep.equal([]);
    expect(doc.getElementById('b3')?.textContent).to.equal('3');
  });

  it('nesting past the depth limit: "subcomposition_too_deep"', async () => {
    const { codes, paths, doc } = await codeOfIssue(chain(4), { limits: { depth: 3 } });
    expect(codes).to.deep.equal(['subcomposition_too_deep']);
    expect(paths[0]!.at(-1)).to.equal(at('l4.html'));
    expect(doc.getElementById('b3')?.textContent).to.equal('3');
    expect(doc.getElementById('b4')).to.equal(null);
  });

  it('the default depth limit stops an unbounded chain', async () => {
    const { codes } = await codeOfIssue(chain(12));
    expect(codes).to.deep.equal(['subcomposition_too_deep']);
  });

  it('a sub-composition past the file size limit: "subcomposition_too_large"', async () => {
    const { codes } = await codeOfIssue(
      {
        'index.html': entry('<div data-composition-src="big.html"></div>'),
        'big.html': card(`<p>${'x'.repeat(2000)}</p>`),
      },
      { limits: { fileBytes: 1000 } },
    );
    expect(codes).to.deep.equal(['subcomposition_too_large']);
  });

  it('a sub-composition declaring a length past the limit: "subcomposition_too_large" before reading it', async () => {
    let read = false;
    class WatchedResponse extends Response {
      override text() {
        read = true;
        return super.text();
      }
    }
    const { codes } = await codeOfIssue(
      {
        'index.html': entry('<div data-composition-src="big.html"></div>'),
        'big.html': () =>
          new WatchedResponse('small', { headers: { 'content-length': '999999999', 'content-type': 'text/html' } }),
      },
      { limits: { fileBytes: 1000 } },
    );
    expect(codes).to.deep.equal(['subcomposition_too_large']);
    expect(read).to.equal(false);
  });

  it('sub-compositions past the total size limit: "subcomposition_too_large" for the one that crosses it', async () => {
    const files = {
      'index.html': entry(
        '<div id="one" data-composition-src="one.html"></div><div id="two" data-composition-src="two.html"></div>',
      ),
      'one.html': card('x'.repeat(400)),
      'two.html': card('y'.repeat(400)),
    };
    const { codes, paths } = await codeOfIssue(files, { limits: { totalBytes: 1300 } });
    expect(codes).to.deep.equal(['subcomposition_too_large']);
    expect(paths).to.deep.equal([['two.html']]);
  });

  const refused = [
    'javascript:alert(1)',
    'data:text/html,<div data-composition-id=x></div>',
    'ftp://example.com/a.html',
    'file:///etc/passwd',
    'about:blank',
    'http://[bad',
  ];
  for (const src of refused) {
    it(`a sub-composition at ${JSON.stringify(src)}: "subcomposition_url_refused", never fetched`, async () => {
      const asked: string[] = [];
      const { issues } = await compileComposition(at('index.html'), {
        runtimeUrl: RUNTIME_URL,
        fetch: filesFetch(
          { 'index.html': entry(`<div data-composition-src="${src.replace(/"/g, '&quot;')}"></div>`) },
          asked,
        ),
      });
      expect(issues.map((found) => found.code)).to.deep.equal(['subcomposition_url_refused']);
      expect(asked).to.deep.equal([at('index.html')]);
    });
  }

  it('an entry without a composition root: "composition_invalid"', async () => {
    expect(await compileError({ 'index.html': '<!doctype html><p>no root here</p>' })).to.equal(
      CompileIssueCode.entryInvalid,
    );
  });

  it('an entry answering 404: "composition_not_found"', async () => {
    expect(await compileError({})).to.equal('composition_not_found');
  });

  it('an entry that cannot be fetched: "composition_not_found"', async () => {
    const error = await compileError({
      'index.html': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(error).to.equal('composition_not_found');
  });

  it('an empty entry: "composition_empty"', async () => {
    expect(await compileError({ 'index.html': ' \n ' })).to.equal('composition_empty');
  });

  it('an empty markup entry: "composition_empty"', async () => {
    const failure = await compileComposition({ html: '' }, { runtimeUrl: RUNTIME_URL }).catch(
      (error: unknown) => error,
    );
    expect(isFxError(failure, 'composition_empty')).to.equal(true);
  });

  it('an entry past the size limit: "composition_too_large"', async () => {
    expect(await compileError({ 'index.html': entry('x'.repeat(3000)) }, { limits: { fileBytes: 1000 } })).to.equal(
      'composition_too_large',
    );
  });

  it('an entry 404 carries the HTTP status', async () => {
    const failure = await compile({}).catch((error: unknown) => error);
    expect(isFxError(failure) && failure.status).to.equal(404);
  });

  it('stops with the abort reason when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    const failure = await compileComposition(at('index.html'), {
      runtimeUrl: RUNTIME_URL,
      signal: abort.signal,
      fetch: (_input, init) =>
        init?.signal?.aborted ? Promise.reject(init.signal.reason) : Promise.resolve(new Response(entry(''))),
    }).catch((error: unknown) => error);
    expect((failure as Error).name).to.equal('AbortError');
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

describe('compileComposition fetches each file once', () => {
  it('mounts one source three times with a single request for it', async () => {
    const files: Record<string, string> = {
      'https://fx.test/index.html': `<div data-composition-id="main" data-duration="3">
        ${[1, 2, 3].map((n) => `<div data-composition-src="card.html" data-variable-values='{"n":"${n}"}'></div>`).join('')}
      </div>`,
      'https://fx.test/card.html': '<template><div data-composition-id="card"><p>card</p></div></template>',
    };
    const requests: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      const url = String(input);
      requests.push(url);
      return files[url] ? typed(url, files[url]) : new Response('', { status: 404 });
    }) as typeof globalThis.fetch;
    const { html, issues } = await compileComposition(new URL('https://fx.test/index.html'), {
      runtimeUrl: 'https://fx.test/fx-runtime.js',
      fetch,
    });
    expect(issues).to.deep.equal([]);
    expect(html.match(/data-fx-instance="card-\d"/g)).to.have.length(3);
    expect(requests.filter((url) => url.endsWith('card.html'))).to.have.length(1);
  });
});

describe('compileComposition keeps what it writes inert', () => {
  const compileFiles = async (files: Record<string, string>, options: Partial<CompileOptions> = {}) => {
    const calls: { url: string; credentials: RequestCredentials | undefined }[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, credentials: init?.credentials });
      return files[url] === undefined ? new Response('', { status: 404 }) : typed(url, files[url]);
    }) as typeof globalThis.fetch;
    const compiled = await compileComposition(new URL('https://fx.test/index.html'), {
      runtimeUrl: 'https://fx.test/fx-runtime.js',
      fetch,
      ...options,
    });
    return { compiled, calls, reparsed: new DOMParser().parseFromString(compiled.html, 'text/html') };
  };

  it('a "</script>" inside an inlined external sub-composition script stays inside that script', async () => {
    const { reparsed } = await compileFiles({
      'https://fx.test/index.html':
        '<div data-composition-id="main"><div data-composition-src="card.html"></div></div>',
      'https://fx.test/card.html':
        '<template><div data-composition-id="card"><script src="card.js"><\/script></div></template>',
      'https://fx.test/card.js': 'const s = "</script><img id=pwned src=x>";',
    });
    // Compared as booleans: chai would try to print a foreign element.
    expect(reparsed.getElementById('pwned') === null).to.equal(true);
    const wrapped = reparsed.querySelector(`script[${FrameAttr.instanceScript}]`)!;
    expect(wrapped.textContent).to.include('"<\\/script><img id=pwned src=x>"');
  });

  it('a hostile data-composition-id cannot break out of the scoped style or the script', async () => {
    const { reparsed, compiled } = await compileFiles({
      'https://fx.test/index.html': `<div data-composition-id="main" data-duration="1"><div data-composition-id='x"]{}</style><img id=pwned2 src=x>' data-composition-src="card.html"></div></div>`,
      'https://fx.test/card.html':
        '<template><div data-composition-id="card"><style>p { color: red; }</style><p>t</p><script>1<\/script></div></template>',
    });
    expect(compiled.issues).to.deep.equal([]);
    expect(reparsed.getElementById('pwned2') === null).to.equal(true);
    const instance = reparsed.querySelector(`[${FrameAttr.instance}]`)!.getAttribute(FrameAttr.instance)!;
    expect(instance).to.match(/^[\w-]+$/);
  });

  it('resolves sub-compositions against the document’s <base href> (a folder the host allows)', async () => {
    const { compiled, calls } = await compileFiles(
      {
        'https://fx.test/index.html':
          '<head><base href="https://cdn.fx.test/kit/"></head><div data-composition-id="main" data-duration="1"><div data-composition-src="card.html"></div></div>',
        'https://cdn.fx.test/kit/card.html':
          '<template><div data-composition-id="card"><p>from the base</p></div></template>',
      },
      { allowCompositionReadsUnder: ['https://cdn.fx.test/kit/'] },
    );
    expect(compiled.issues).to.deep.equal([]);
    expect(calls.map((call) => call.url)).to.include('https://cdn.fx.test/kit/card.html');
    expect(compiled.html).to.include('from the base');
  });

  it('a malformed <base href> leaves relative URLs resolving against the entry (and does not fail the compile)', async () => {
    const { compiled, reparsed } = await compileFiles({
      'https://fx.test/index.html':
        '<head><base href="http://["></head><div data-composition-id="main" data-duration="1"><div data-composition-src="card.html"></div></div>',
      'https://fx.test/card.html':
        '<template><div data-composition-id="card"><p>next to the entry</p></div></template>',
    });
    expect(compiled.issues).to.deep.equal([]);
    expect(compiled.html).to.include('next to the entry');
    expect(reparsed.querySelector('base')!.getAttribute('href')).to.equal('https://fx.test/index.html');
  });

  it('a top-level stylesheet link with a malformed href stays a link (and does not fail the compile)', async () => {
    const { compiled, reparsed } = await compileFiles({
      'https://fx.test/index.html':
        '<head><link rel="stylesheet" href="http://["></head><div data-composition-id="main" data-duration="1"></div>',
    });
    expect(compiled.issues).to.deep.equal([]);
    expect(reparsed.querySelector('link[rel="stylesheet"]')!.getAttribute('href')).to.equal('http://[');
  });

  it('fetches the entry with same-origin credentials and what the composition names without cookies', async () => {
    const { calls } = await compileFiles({
      'https://fx.test/index.html': '<div data-composition-id="main"><div data-composition-src="/api/me"></div></div>',
      'https://fx.test/api/me': '<template><div data-composition-id="me"></div></template>',
    });
    expect(calls).to.deep.equal([
      { url: 'https://fx.test/index.html', credentials: 'same-origin' },
      { url: 'https://fx.test/api/me', credentials: 'omit' },
    ]);
  });
});
