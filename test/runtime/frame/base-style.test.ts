// The frame's own rules (base-style.ts): text with geometric precision in every composition, unless its author says
// otherwise. Without it Chromium rasterised a font size in the preview's frame with or without subpixel glyph
// positions at random per load, off the render by up to half a device pixel (test/demo checks the pictures).
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../../src/runtime/compile/compile.js';
import { openCompiled } from '../compiled-frame.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
const ENTRY = new URL('/virtual/index.html', location.href).href;

const composition = (style: string) => `<!doctype html><html><head><style>${style}</style></head><body>
  <div data-composition-id="main" data-width="320" data-height="180" data-duration="1">
    <p id="text" style="font-size: 37.3px">Launch week</p>
  </div>
</body></html>`;

async function textRendering(style = ''): Promise<[html: string, text: string]> {
  const fetch = (async () =>
    new Response(composition(style), { headers: { 'content-type': 'text/html' } })) as typeof globalThis.fetch;
  const frame = await openCompiled(await compileComposition(ENTRY, { runtimeUrl: RUNTIME_URL, fetch, fps: 30 }));
  const rendering = (element: Element) => frame.getComputedStyle(element).textRendering;
  return [rendering(frame.document.documentElement), rendering(frame.document.getElementById('text')!)];
}

describe('the frame base style', () => {
  it('lays text out with geometric precision', async () => {
    expect(await textRendering()).to.deep.equal(['geometricprecision', 'geometricprecision']);
  });

  it("leaves the author's rule the last word, on the root or on an element", async () => {
    expect(await textRendering('html { text-rendering: optimizeLegibility }')).to.deep.equal([
      'optimizelegibility',
      'optimizelegibility',
    ]);
    expect(await textRendering('p { text-rendering: optimizeSpeed }')).to.deep.equal([
      'geometricprecision',
      'optimizespeed',
    ]);
  });
});
