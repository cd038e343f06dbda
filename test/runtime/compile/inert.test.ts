// What the compile writes stays inert (no markup breaks out of a script or a style), and what it fetches is read
// as the document and its <base> say, with the credentials each file may carry.
import { expect } from '@open-wc/testing';
import { compileComposition, type CompileOptions } from '../../../src/runtime/compile/compile.js';
import { FrameAttr } from '../../../src/runtime/frame-config.js';
import { typed } from './helpers.js';

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
