import { expect } from '@open-wc/testing';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import { ask, track, waitFor } from './helpers.js';

const PAGES = {
  strict: { url: '/test/fixtures/csp/strict.html', policy: "script-src 'self'" },
  nonce: { url: '/test/fixtures/csp/nonce.html', policy: "script-src 'nonce-abc' 'self'" },
} as const;

interface HostPage {
  readonly view: Window;
  readonly element: FxComposition;
  /** Asks the probe inside the composition frame of the page's element. */
  question<T = unknown>(question: Record<string, unknown> & { ask: string }): Promise<T>;
}

/** Loads a CSP page (served with its header) in a same-origin iframe and waits for its `<fx-composition>` to be ready. */
async function openPage(url: string): Promise<HostPage> {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:400px;height:240px;border:0';
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.src = url;
  track(document.body, iframe);
  await loaded;
  const view = iframe.contentWindow!;
  const element = view.document.querySelector('fx-composition') as FxComposition;
  await waitFor(() => element.ready, `the composition of ${url} to be ready`);
  const frame = () => element.shadowRoot!.querySelector('iframe')!.contentWindow!;
  // The probe answers the window that posted the question: this one.
  return { view, element, question: (question) => ask(frame(), question) };
}

describe("<fx-composition> under a strict CSP (script-src 'self')", () => {
  it('the page is served with the policy (the condition under test)', async () => {
    const response = await fetch(PAGES.strict.url);
    expect(response.headers.get('content-security-policy')).to.equal(PAGES.strict.policy);
  });

  it('applies declared defaults, bindings and overrides without any inline script', async () => {
    const page = await openPage(PAGES.strict.url);
    expect(await page.question({ ask: 'text', selector: '#title' })).to.equal('Override from the host');
    expect(await page.question({ ask: 'text', selector: '#subtitle' })).to.equal('Subtitle default');
    expect(await page.question({ ask: 'style', selector: '#title', property: 'color' })).to.equal('rgb(255, 0, 0)');
    expect(await page.question({ ask: 'text', selector: '#card .name' })).to.equal('Ada');
    expect(page.element.duration).to.equal(2);
  });

  it('blocks inline composition scripts (the policy is in force inside the frame)', async () => {
    const page = await openPage(PAGES.strict.url);
    expect(await page.question({ ask: 'text', selector: '#inline' })).to.equal('inline script did not run');
    expect(await page.question({ ask: 'text', selector: '#card .seen' })).to.equal('instance script did not run');
  });

  it('updates variables live and seeks', async () => {
    const page = await openPage(PAGES.strict.url);
    page.element.variables = { title: 'Live under CSP', accent: '#0000ff' };
    await new Promise((resolve) => page.element.addEventListener('variableschange', resolve, { once: true }));
    expect(await page.question({ ask: 'text', selector: '#title' })).to.equal('Live under CSP');
    expect(await page.question({ ask: 'style', selector: '#title', property: 'color' })).to.equal('rgb(0, 0, 255)');
    expect(await page.element.seek(1)).to.equal(1);
    expect(await page.question({ ask: 'runtime' })).to.deep.include({ currentTime: 1 });
  });
});

describe("<fx-composition nonce> under a nonce CSP (script-src 'nonce-abc' 'self')", () => {
  it('the page is served with the policy (the condition under test)', async () => {
    const response = await fetch(PAGES.nonce.url);
    expect(response.headers.get('content-security-policy')).to.equal(PAGES.nonce.policy);
  });

  it('runs inline composition scripts, top level and instance, with their values', async () => {
    const page = await openPage(PAGES.nonce.url);
    expect(await page.question({ ask: 'text', selector: '#inline' })).to.equal(
      'inline script ran: Override from the host',
    );
    expect(await page.question({ ask: 'text', selector: '#card .seen' })).to.equal('instance script saw Ada');
  });

  it('delivers the overrides as window.__fxVariables and applies bindings', async () => {
    const page = await openPage(PAGES.nonce.url);
    expect(await page.question({ ask: 'global', name: '__fxVariables' })).to.deep.equal({
      title: 'Override from the host',
    });
    expect(await page.question({ ask: 'text', selector: '#title' })).to.equal('Override from the host');
    expect(await page.question({ ask: 'text', selector: '#subtitle' })).to.equal('Subtitle default');
  });
});
