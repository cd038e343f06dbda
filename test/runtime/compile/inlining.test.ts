// The compile inlines sub-compositions into their hosts (scoped instances, their scripts wrapped) and writes the
// config the frame reads: size, duration, fps, overrides.
import { expect } from '@open-wc/testing';
import { compileComposition, withOverrides, type CompiledComposition } from '../../../src/runtime/compile/compile.js';
import { FrameAttr } from '../../../src/runtime/frame-config.js';
import { openCompiled } from '../compiled-frame.js';
import { RUNTIME_URL, at, filesFetch, compile, parse, entry, NAME, card } from './helpers.js';

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

describe('compileComposition: root duration', () => {
  it('is fixed at compile time: a script rewriting data-duration changes nothing', async () => {
    const script = `<script>document.getElementById('root').setAttribute('data-duration', '10'); document.documentElement.setAttribute('data-duration', '10');</script>`;
    const view = await openCompiled(await compile({ 'index.html': entry(script) }));
    expect(view.document.getElementById('root')!.getAttribute('data-duration')).to.equal('10');
    expect(view.__fx.duration).to.equal(2);
    expect(await view.__fx.seek(5)).to.equal(2);
  });
});
