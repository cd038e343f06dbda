// Compositions written for HyperFrames read `window.__hyperframes.getVariables()` and take injected
// `window.__hfVariables`: the runtime answers both as aliases of `__fx` / `__fxVariables` (same values, same
// per-instance scoping, same precedence), unless the composition says `data-fx-compat="none"`.
import { expect } from '@open-wc/testing';
import { compileComposition, type CompiledComposition } from '../../../src/runtime/compile/compile.js';
import { openCompiled } from '../compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const BASE = new URL('/virtual/', location.href).href;
const DECLARATIONS = JSON.stringify([
  {
    id: 'title',
    type: 'string',
    role: 'content',
    label: 'Title',
    description: 'The headline.',
    default: 'Top default',
  },
]).replaceAll("'", '&#39;');
const SUB_DECLARATIONS = JSON.stringify([{ id: 'title', type: 'string', label: 'Title', default: 'Sub default' }]);

function compile(files: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<CompiledComposition> {
  const fetch = (async (input: RequestInfo | URL) => {
    const body = files[String(input).slice(BASE.length)];
    return body === undefined
      ? new Response('', { status: 404 })
      : new Response(body, { headers: { 'content-type': 'text/html' } });
  }) as typeof globalThis.fetch;
  return compileComposition(`${BASE}index.html`, { runtimeUrl: RUNTIME_URL, fetch, overrides });
}

/** A block-like entry: its script reads the values once, at load, through the HyperFrames name, into the DOM. */
const entry = (body: string, rootAttributes = '') =>
  `<!doctype html><html data-composition-variables='${DECLARATIONS}'><head></head><body>
    <div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1" ${rootAttributes}>${body}</div>
    <script>
      var vars = window.__hyperframes && window.__hyperframes.getVariables ? window.__hyperframes.getVariables() : {};
      document.body.setAttribute('data-read', JSON.stringify(vars));
    </script></body></html>`;
/** A sub-composition reading its own values through every spelling of the HyperFrames name. */
const SUB = `<template><div data-composition-id="s" data-composition-variables='${SUB_DECLARATIONS}'><script>
  document.currentScript.parentElement.setAttribute('data-read', JSON.stringify([
    window.__hyperframes.getVariables().title, __hyperframes.getVariables().title, self.__hyperframes.getVariables().title,
    typeof window.__hfVariables, typeof __hfVariables, '__hfVariables' in window,
  ]));
</script></div></template>`;

const read = (view: Window, selector: string) =>
  JSON.parse(view.document.querySelector(selector)!.getAttribute('data-read')!);

/** The compiled document with `script` run before anything else, as a harness injecting overrides would. */
const withInjection = (compiled: CompiledComposition, script: string): CompiledComposition => ({
  ...compiled,
  html: compiled.html.replace('<head>', `<head><script>${script}</script>`),
});

describe('HyperFrames-named globals', () => {
  it('window.__hyperframes is window.__fx, and a script reading it at load gets the overridden values', async () => {
    const view = await openCompiled(await compile({ 'index.html': entry('') }, { title: 'Override' }));
    expect(view.__hyperframes).to.equal(view.__fx);
    expect(read(view, 'body')).to.deep.equal({ title: 'Override' });
    expect(view.__hfVariables).to.equal(view.__fxVariables);
    expect(view.__hfVariables).to.deep.equal({ title: 'Override' });
  });

  it('an instance gets its own values under the HyperFrames name, and no top-level overrides', async () => {
    const files = {
      'index.html': entry(
        `<div id="s" data-composition-src="s.html" data-variable-values='{"title":"From host"}'></div>`,
      ),
      's.html': SUB,
    };
    const view = await openCompiled(await compile(files, { title: 'Override' }));
    expect(read(view, '#s')).to.deep.equal(['From host', 'From host', 'From host', 'undefined', 'undefined', false]);
    expect(read(view, 'body')).to.deep.equal({ title: 'Override' });
  });

  it('injected window.__hfVariables are the overrides, with the same precedence as __fxVariables', async () => {
    const compiled = await compile({ 'index.html': entry('') }, { title: 'Compiled' });
    const view = await openCompiled(withInjection(compiled, 'window.__hfVariables = { title: "Injected" };'));
    expect(read(view, 'body')).to.deep.equal({ title: 'Injected' });
    expect(view.__fx.getVariables()).to.deep.equal({ title: 'Injected' });
  });

  it('__fxVariables wins over __hfVariables when both are injected; a non-object injection is none', async () => {
    const compiled = await compile({ 'index.html': entry('') }, { title: 'Compiled' });
    const both = await openCompiled(
      withInjection(compiled, 'window.__fxVariables = { title: "fx" }; window.__hfVariables = { title: "hf" };'),
    );
    expect(read(both, 'body')).to.deep.equal({ title: 'fx' });
    const junk = await openCompiled(withInjection(compiled, 'window.__hfVariables = "title";'));
    expect(read(junk, 'body')).to.deep.equal({ title: 'Compiled' });
  });

  for (const where of ['root', 'html'] as const) {
    it(`data-fx-compat="none" on the ${where} turns the aliases off: the page's own globals are left alone`, async () => {
      const own = `<script>window.__hyperframes = { mine: true };</script>`;
      let html = entry(
        `<div id="s" data-composition-src="s.html"></div>`,
        where === 'root' ? 'data-fx-compat="none"' : '',
      ).replace('<head></head>', `<head>${own}</head>`);
      if (where === 'html') html = html.replace('<html ', '<html data-fx-compat="None" ');
      const sub = `<template><div data-composition-id="s"><script>document.currentScript.parentElement.setAttribute('data-read', JSON.stringify([typeof __hyperframes, window.__hyperframes && window.__hyperframes.mine]));</script></div></template>`;
      const compiled = await compile({ 'index.html': html, 's.html': sub }, { title: 'Override' });
      const injected = await openCompiled(withInjection(compiled, 'window.__hfVariables = { title: "Injected" };'));
      expect(injected.__hyperframes).to.deep.equal({ mine: true });
      expect(injected.__fx.getVariables()).to.deep.equal({ title: 'Override' });
      expect(read(injected, '#s')).to.deep.equal(['object', true]);
    });
  }
});
