// The classic-script bundles as a page would use them: one <script src> from dist/, nothing imported. Each runs in
// its own same-origin iframe, so this test page's own <fx-composition> definition is not in the way.
import { expect } from '@open-wc/testing';

interface ClassicPage {
  readonly window: Window & { fx?: Record<string, unknown> };
  readonly element: HTMLElement & { ready: boolean; duration: number; seek(seconds: number): Promise<number> };
  /** The runtime URL the element loads into its frames; undefined while it writes the bundle's own runtime in. */
  readonly runtimeUrl: string | undefined;
  remove(): void;
}

/** Loads `bundle` in a fresh page with one composition and waits for the composition's `ready` event. */
async function classicPage(bundle: string): Promise<ClassicPage> {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width: 400px; height: 240px; border: 0';
  iframe.srcdoc = `<!doctype html><body style="margin:0">
    <fx-composition src="/test/fixtures/basic/index.html" style="width: 320px"></fx-composition>
    <script src="${bundle}"></script></body>`;
  document.body.append(iframe);
  await new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  const window = iframe.contentWindow as ClassicPage['window'];
  const element = window.document.querySelector('fx-composition') as ClassicPage['element'];
  if (!element.ready) await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
  const { runtimeUrl } = window.customElements.get('fx-composition') as unknown as { runtimeUrl?: string };
  return { window, element, runtimeUrl, remove: () => iframe.remove() };
}

describe('classic-script bundles', () => {
  it('fx-player.iife.js defines <fx-composition>, carries the runtime and adds no global', async () => {
    const page = await classicPage('/dist/fx-player.iife.js');
    try {
      expect(page.element.duration).to.equal(4);
      expect(await page.element.seek(1)).to.equal(1);
      expect(page.runtimeUrl).to.equal(undefined);
      expect(page.window.fx).to.equal(undefined);
      expect(page.window.customElements.get('fx-composition')).to.be.a('function');
    } finally {
      page.remove();
    }
  });

  it('fx.iife.js defines <fx-composition> and exposes the SDK as window.fx', async () => {
    const page = await classicPage('/dist/fx.iife.js');
    try {
      expect(page.element.duration).to.equal(4);
      expect(page.runtimeUrl).to.equal(undefined);
      expect(page.window.fx?.lintComposition).to.be.a('function');
      expect(page.window.fx?.extractCompositionMetadata).to.be.a('function');
      expect(page.window.fx?.FxComposition).to.equal(page.window.customElements.get('fx-composition'));
    } finally {
      page.remove();
    }
  });
});
