import { expect } from '@open-wc/testing';
import { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { mount, nextEvent, RUNTIME_URL } from './helpers.js';

const COMPOSITION = '/test/fixtures/basic/index.html';

describe('<fx-composition> runtime loading', () => {
  afterEach(() => {
    FxComposition.runtimeUrl = RUNTIME_URL;
  });

  it('a runtime URL that answers 404 is an "error" naming it within 2 s, not a ready timeout', async () => {
    const missing = new URL('/dist/no-such-runtime.js', location.href).href;
    FxComposition.runtimeUrl = missing;
    const started = performance.now();
    const element = mount({ src: COMPOSITION });
    const error = await nextEvent<CustomEvent<{ code: string; message: string }>>(element, 'error', 2000);
    expect(error.detail.code).to.equal('runtime_load_failed');
    expect(error.detail.message).to.contain(missing);
    expect(performance.now() - started).to.be.below(2000);
    expect(element.ready).to.equal(false);
  });

  it('a runtime URL on a host that cannot be reached is an "error" too', async () => {
    FxComposition.runtimeUrl = 'http://127.0.0.1:9/fx-runtime.js';
    const element = mount({ src: COMPOSITION });
    const error = await nextEvent<CustomEvent<{ code: string }>>(element, 'error', 2000);
    expect(error.detail.code).to.equal('runtime_load_failed');
  });
});

describe('the ES build (dist/fx-sdk.js) carries the runtime', () => {
  it('gets ready with no runtimeUrl and no request for fx-runtime.js', async () => {
    // A page of its own: this file's element class is the source tree's, which names a URL.
    const iframe = document.createElement('iframe');
    iframe.srcdoc = `<script type="module">
      import { FxComposition } from '/dist/fx-sdk.js';
      const element = document.createElement('fx-composition');
      element.src = '${new URL(COMPOSITION, location.href).href}';
      element.addEventListener('ready', () => parent.postMessage({ ready: true, runtimeUrl: FxComposition.runtimeUrl ?? null }, '*'));
      element.addEventListener('error', (event) => parent.postMessage({ error: event.detail.code }, '*'));
      document.body.append(element);
    </script>`;
    const answer = new Promise<Record<string, unknown>>((resolve) =>
      addEventListener('message', function onMessage(event) {
        if (event.source !== iframe.contentWindow) return;
        removeEventListener('message', onMessage);
        resolve(event.data as Record<string, unknown>);
      }),
    );
    document.body.append(iframe);
    try {
      // runtimeUrl stays undefined only while the bundle's own copy of the runtime is used.
      expect(await answer).to.deep.equal({ ready: true, runtimeUrl: null });
    } finally {
      iframe.remove();
    }
  });
});
