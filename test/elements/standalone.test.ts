// dist/fx-sdk.standalone.js as a plain page uses it from a CDN: one `<script type="module">` importing it by URL from
// a static folder on another origin, with no import map and no bundler. The folder is served as files are (the test
// server's /static/ route), so a bare `import 'lit'` left in the bundle fails here as it would on a CDN.
import { expect } from '@open-wc/testing';

const COMPOSITION = new URL('/test/fixtures/basic/index.html', location.href).href;
const CDN = new URL('/static/fx-sdk/dist/', location.href);
CDN.hostname = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';

/** What the page posts back: ready (with what the module exports) or the first failure. */
type Answer = { ready: true; duration: number; runtimeUrl: string | null; exports: string[] } | { failed: string };

function loadPage(bundle: string): { answer: Promise<Answer>; remove(): void } {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width: 400px; height: 240px; border: 0';
  iframe.srcdoc = `<!doctype html><body style="margin:0">
    <fx-composition src="${COMPOSITION}" style="display:block;width:320px;height:180px"></fx-composition>
    <script type="module">
      import * as fx from '${new URL(bundle, CDN).href}';
      const element = document.querySelector('fx-composition');
      element.addEventListener('error', (event) => parent.postMessage({ failed: event.detail.code + ': ' + event.detail.message }, '*'));
      const ready = () => parent.postMessage({ ready: true, duration: element.duration, runtimeUrl: fx.FxComposition.runtimeUrl ?? null, exports: Object.keys(fx) }, '*');
      if (element.ready) ready(); else element.addEventListener('ready', ready);
    </script>
    <script>addEventListener('error', (event) => parent.postMessage({ failed: String(event.message) }, '*'))</script>
    </body>`;
  const answer = new Promise<Answer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the page importing ${bundle} within 8 s`)), 8000);
    addEventListener('message', function onMessage(event) {
      if (event.source !== iframe.contentWindow) return;
      removeEventListener('message', onMessage);
      clearTimeout(timer);
      resolve(event.data as Answer);
    });
  });
  document.body.append(iframe);
  return { answer, remove: () => iframe.remove() };
}

describe('dist/fx-sdk.standalone.js from a static folder', () => {
  it('imports with no import map and gets a ready <fx-composition> with the runtime it carries', async () => {
    const page = loadPage('fx-sdk.standalone.js');
    try {
      const answer = await page.answer;
      if ('failed' in answer) throw new Error(`the page failed: ${answer.failed}`);
      expect(answer.duration).to.equal(4);
      // No URL: the frame runs the runtime's code written in, so no fx-runtime.js need sit next to it.
      expect(answer.runtimeUrl).to.equal(null);
      // The same API as `import 'fx-sdk'`.
      expect(answer.exports).to.include.members([
        'FxComposition',
        'lintComposition',
        'extractCompositionMetadata',
        'compileComposition',
        'declarationSchemas',
      ]);
    } finally {
      page.remove();
    }
  });
});
