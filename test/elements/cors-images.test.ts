// Issue 13, section 3: `<img crossorigin>` of the project's own files, served without CORS headers, shows in the
// opaque-origin frame: the compiler inlines what the composition may read as data: URLs (the sandbox stays as it is).
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../src/runtime/compile/compile.js';
import { mount, probe, probeUntil, whenReady } from './helpers.js';

const ENTRY = '/test/fixtures/no-cors/crossorigin.html';
const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;

describe('<img crossorigin> of a project served without CORS', () => {
  it('shows, at top level and in a sub-composition, inlined as data: URLs; an image without crossorigin keeps its URL', async () => {
    const el = await whenReady(mount({ src: ENTRY }));
    for (const selector of ['#top', '#sub']) {
      expect(
        await probeUntil<number>(el, { ask: 'property', selector, name: 'naturalWidth' }, (width) => width === 40),
        selector,
      ).to.equal(40);
      expect(await probe<string>(el, { ask: 'attribute', selector, name: 'src' })).to.match(
        /^data:image\/svg\+xml;base64,/,
      );
    }
    expect(await probe(el, { ask: 'attribute', selector: '#plain', name: 'src' })).to.equal('pic.svg');
  });

  it('leaves an image outside the read scope for the frame, and reports a missing one as "project_file_missing"', async () => {
    const html = `<div data-composition-id="m" data-width="320" data-height="180" data-duration="1">
      <img crossorigin src="https://elsewhere.invalid/a.png"><img crossorigin src="missing.png"></div>`;
    const compiled = await compileComposition(
      { html, url: new URL(ENTRY, location.href).href },
      { runtimeUrl: RUNTIME_URL },
    );
    expect(compiled.html).to.include('src="https://elsewhere.invalid/a.png"');
    expect(compiled.html).to.include('src="missing.png"');
    expect(compiled.issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
      ['project_file_missing', 'error', ['crossorigin.html', '<img src>', 'missing.png']],
    ]);
    expect(compiled.dependencies).to.include(new URL('/test/fixtures/no-cors/missing.png', location.href).href);
  });
});
