// The classic-script bundles as a page would use them: one <script src> from dist/, nothing imported. Each runs in
// its own same-origin iframe, so this test page's own <fx-composition> definition is not in the way.
import { expect } from '@open-wc/testing';
import { FxError, isFxError } from '../../src/runtime/errors.js';
import { itUnlessWebKit } from '../browsers.js';

/** Whether `window` fetched the classic scripts' export encoder (dist/fx-export-encoder.js) so far. */
const fetchedEncoder = (window: Window) =>
  window.performance.getEntriesByType('resource').some(({ name }) => name.endsWith('/dist/fx-export-encoder.js'));

interface ClassicPage {
  readonly window: Window & { fx?: Record<string, unknown> };
  readonly element: HTMLElement & {
    ready: boolean;
    duration: number;
    seek(seconds: number): Promise<number>;
    exportVideo(options: { format: 'webm'; fps: number }): Promise<{ video: Blob | undefined; frames: number }>;
  };
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

  itUnlessWebKit(
    'videoEncoder',
    'fx-player.iife.js exports a video, fetching the encoder beside it on the first export only',
    async function (this: Mocha.Context) {
      this.timeout(30_000);
      const page = await classicPage('/dist/fx-player.iife.js');
      try {
        expect(fetchedEncoder(page.window)).to.equal(false);
        const { video, frames } = await page.element.exportVideo({ format: 'webm', fps: 5 });
        expect(frames).to.equal(20);
        expect(video?.type).to.equal('video/webm');
        expect(video?.size).to.be.above(1000);
        expect(fetchedEncoder(page.window)).to.equal(true);
      } finally {
        page.remove();
      }
    },
  );

  it('a classic player with no encoder beside it: export_encoder_unavailable, naming the file', async function (this: Mocha.Context) {
    this.timeout(30_000);
    // The same script from a blob: URL, beside which nothing can be fetched.
    const code = await (await fetch('/dist/fx-player.iife.js')).text();
    const page = await classicPage(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    try {
      const error = await page.element.exportVideo({ format: 'webm', fps: 5 }).catch((e: unknown) => e);
      expect(isFxError(error, 'export_encoder_unavailable'), String(error)).to.equal(true);
      expect((error as Error).message).to.contain('fx-export-encoder.js beside the script');
    } finally {
      page.remove();
    }
  });

  it("the encoder file's errors are FxErrors to isFxError, though it carries its own copy of the class", async () => {
    const encoder = '/dist/fx-export-encoder.js';
    const { openVideoOutput } = (await import(
      /* @vite-ignore */ encoder
    )) as typeof import('../../src/export/encode/video-output.js');
    const error = await openVideoOutput({
      format: 'gif' as 'webm',
      width: 2,
      height: 2,
      fps: 1,
      quality: 'draft',
      alpha: false,
    }).catch((e) => e);
    expect(error).to.be.instanceOf(Error).and.not.instanceOf(FxError);
    expect(isFxError(error, 'export_option_invalid')).to.equal(true);
  });
});
