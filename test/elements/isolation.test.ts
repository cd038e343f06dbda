import { expect } from '@open-wc/testing';
import { isWebKit, itUnlessWebKit } from '../browsers.js';
import { compileComposition } from '../../src/runtime/compile/compile.js';
import {
  ask,
  compositionHtml,
  mount,
  probe,
  RUNTIME_URL,
  sleep,
  track,
  watchUncaught,
  whenReady,
  nextEvent,
  waitFor,
} from './helpers.js';

// Each attempt records the error's name, or what it got when it was allowed.
const ATTEMPTS = `<script>
  const results = {};
  const attempt = (name, run) => {
    try { results[name] = 'allowed: ' + String(run()); } catch (error) { results[name] = error.name; }
  };
  attempt('parentDocument', () => parent.document.title);
  attempt('parentBodyWrite', () => { parent.document.body.setAttribute('data-pwned', 'yes'); return 'written'; });
  attempt('topHref', () => top.location.href);
  attempt('topNavigate', () => { top.location.href = 'about:blank#pwned'; return 'navigated'; });
  attempt('parentGlobal', () => { parent.__pwned = 1; return parent.__pwned; });
  attempt('cookieRead', () => document.cookie);
  attempt('cookieWrite', () => { document.cookie = 'fx-pwned=1'; return document.cookie; });
  attempt('localStorage', () => localStorage.getItem('fx-host'));
  attempt('sessionStorage', () => sessionStorage.getItem('fx-host'));
  attempt('indexedDB', () => indexedDB.open('fx-host'));
  attempt('frameElement', () => window.frameElement);
  window.__isolation = results;
</script>`;

describe('<fx-composition> isolation', () => {
  const title = document.title;
  beforeEach(() => {
    document.cookie = 'fx-host=secret; path=/';
    localStorage.setItem('fx-host', 'secret');
    sessionStorage.setItem('fx-host', 'secret');
  });
  afterEach(() => {
    document.cookie = 'fx-host=; path=/; max-age=0';
    localStorage.removeItem('fx-host');
    sessionStorage.removeItem('fx-host');
  });

  it('is accessible', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml({ body: ATTEMPTS }) }));
    await expect(el).to.be.accessible();
  });

  it('runs the composition in a sandbox with scripts but without the host origin', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
    const iframe = el.shadowRoot!.querySelector('iframe')!;
    expect(iframe.getAttribute('sandbox')).to.equal('allow-scripts');
    expect(iframe.contentDocument).to.equal(null);
  });

  it('a composition script cannot read or touch the host’s DOM, location, cookies or storage', async () => {
    const uncaught = watchUncaught();
    const el = await whenReady(mount({}, { srcdoc: compositionHtml({ body: ATTEMPTS }) }));
    const results = await probe<Record<string, string>>(el, { ask: 'global', name: '__isolation' });
    await sleep(100);
    uncaught.stop();
    expect(results).to.deep.equal({
      parentDocument: 'SecurityError',
      parentBodyWrite: 'SecurityError',
      topHref: 'SecurityError',
      topNavigate: 'SecurityError',
      parentGlobal: 'SecurityError',
      // WebKit gives an opaque origin an empty cookie jar instead of throwing: nothing read, nothing kept (below).
      cookieRead: isWebKit ? 'allowed: ' : 'SecurityError',
      cookieWrite: isWebKit ? 'allowed: ' : 'SecurityError',
      localStorage: 'SecurityError',
      sessionStorage: 'SecurityError',
      indexedDB: 'SecurityError',
      frameElement: 'allowed: null',
    });
    expect(document.cookie, 'the host’s cookies').to.not.contain('fx-pwned');
    expect(document.title).to.equal(title);
    expect(document.body.hasAttribute('data-pwned')).to.equal(false);
    expect((window as { __pwned?: unknown }).__pwned).to.equal(undefined);
    expect(location.hash).to.equal('');
    expect(document.cookie).to.include('fx-host=secret');
    expect(document.cookie).not.to.include('fx-pwned');
    expect(localStorage.getItem('fx-host')).to.equal('secret');
    expect(sessionStorage.getItem('fx-host')).to.equal('secret');
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('ignores messages that are not the protocol’s, from the frame or anyone else', async () => {
    const noise = compositionHtml({
      body: `<script>
        parent.postMessage({ type: 'ready', duration: 999, fps: 1, width: 1, height: 1, declarations: [], values: {}, issues: [], readsVariablesAtLoad: false }, '*');
        parent.postMessage({ fx: 1, type: 'fx:connect' }, '*');
        parent.postMessage('garbage', '*');
      </script>`,
    });
    const uncaught = watchUncaught();
    const el = await whenReady(mount({}, { srcdoc: noise }));
    window.postMessage({ type: 'seeked', id: 1, time: 5 }, '*');
    await sleep(100);
    uncaught.stop();
    expect(el.duration).to.equal(2);
    expect(el.currentTime).to.equal(0);
    expect(uncaught.errors).to.deep.equal([]);
  });
});

describe('<fx-composition> fonts served without CORS headers', () => {
  const FONT_URL = '/test/fixtures/no-cors/fx-wide.ttf';
  const FONT_SIZE = 20;
  // "WWW" in FxWide is 3 × 3 em; any fallback font is far narrower.
  const WIDE_WIDTH = 3 * 3 * FONT_SIZE;
  const fontComposition = (fontUrl = FONT_URL) =>
    compositionHtml({
      head: `<style>@font-face { font-family: FxWide; src: url("${fontUrl}") format("truetype"); }</style>`,
      body: `<span id="wide" style="font: ${FONT_SIZE}px FxWide, monospace; white-space: pre">WWW</span>`,
    });

  it('are served without Access-Control-Allow-Origin (the condition under test)', async () => {
    const response = await fetch(FONT_URL);
    expect(response.status).to.equal(200);
    expect(response.headers.has('access-control-allow-origin')).to.equal(false);
  });

  it('load in the isolated frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: fontComposition() }));
    expect(await probe(el, { ask: 'font', family: 'FxWide' })).to.deep.equal(['loaded']);
    expect(await probe(el, { ask: 'width', selector: '#wide' })).to.equal(WIDE_WIDTH);
  });

  it('load from a sub-composition’s stylesheet too', async () => {
    const el = await whenReady(mount({ src: '/test/fixtures/no-cors/index.html' }));
    expect(await probe(el, { ask: 'font', family: 'FxWide' })).to.deep.equal(['loaded']);
    expect(await probe(el, { ask: 'width', selector: '.wide' })).to.equal(WIDE_WIDTH);
  });

  itUnlessWebKit(
    'fontCors',
    'would fail in an opaque-origin frame if the compiler did not inline them (control)',
    async () => {
      const { html } = await compileComposition(
        { html: fontComposition(), url: location.href },
        { runtimeUrl: RUNTIME_URL, inlineFonts: false },
      );
      const iframe = document.createElement('iframe');
      iframe.setAttribute('sandbox', 'allow-scripts');
      iframe.style.cssText = 'width:320px;height:180px;border:0';
      const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
      iframe.srcdoc = html;
      track(document.body, iframe);
      await loaded;
      const statuses = await ask<string[]>(iframe.contentWindow!, { ask: 'font', family: 'FxWide' });
      expect(statuses).to.deep.equal(['error']);
      expect(await ask(iframe.contentWindow!, { ask: 'width', selector: '#wide' })).to.be.lessThan(WIDE_WIDTH);
    },
  );
});

describe('<fx-composition> font variables with a source file', () => {
  const FONT_SIZE = 20;
  const WIDE_WIDTH = 3 * 3 * FONT_SIZE;
  const declarations = [{ id: 'face', type: 'font', label: 'Face', default: 'monospace' }];
  const composition = compositionHtml({
    variables: declarations,
    body: `<span id="wide" style="font-size: ${FONT_SIZE}px; font-family: var(--face), monospace; white-space: pre">WWW</span>`,
  });

  it('load a source served without CORS headers, live, and apply the family', async () => {
    const el = await whenReady(mount({}, { srcdoc: composition }));
    expect(await probe(el, { ask: 'width', selector: '#wide' })).to.be.lessThan(WIDE_WIDTH);
    el.variables = { face: { name: 'FxWideVar', source: '/test/fixtures/no-cors/fx-wide.ttf' } };
    await nextEvent(el, 'variableschange');
    await waitFor(
      async () => (await probe(el, { ask: 'width', selector: '#wide' })) === WIDE_WIDTH,
      'the wide face to apply',
    );
  });

  it('refuses a source that is not a font URL, with an issue, and keeps the fallback', async () => {
    const el = await whenReady(mount({}, { srcdoc: composition }));
    el.variables = { face: { name: 'Evil', source: 'javascript:alert(1)' } };
    const event = await nextEvent<CustomEvent<{ issues: { code: string }[] }>>(el, 'variableschange');
    expect(event.detail.issues.map((found) => found.code)).to.include('font_source_refused');
    expect(await probe(el, { ask: 'width', selector: '#wide' })).to.be.lessThan(WIDE_WIDTH);
  });
});
