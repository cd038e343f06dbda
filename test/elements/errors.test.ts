// Issue 9, item 6: errors a user can act on. A composition without a duration is the renderer's
// `composition_duration_missing` in the preview too, and a cross-origin `src` refused for want of CORS says so.
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../src/runtime/compile/compile.js';
import { isFxError } from '../../src/runtime/errors.js';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { compositionHtml, mount, nextEvent, RUNTIME_URL } from './helpers.js';

/** The test server under its other name: another origin, which answers without CORS under /test/fixtures/no-cors/. */
function otherOrigin(path: string): string {
  const url = new URL(path, location.href);
  url.hostname = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.href;
}

describe('<fx-composition> errors a user can act on', () => {
  it('a root without data-duration is an "error" event with the renderer\'s code, not a silent 0:00', async () => {
    const element = mount(
      {},
      { srcdoc: '<div data-composition-id="m" data-width="320" data-height="180"><p>no duration</p></div>' },
    );
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(element, 'error');
    expect(detail.code).to.equal('composition_duration_missing');
    expect(detail.message).to.contain('positive "data-duration"');
  });

  it('a cross-origin src served without CORS is an "error" naming CORS and the header to send', async () => {
    const src = otherOrigin('/test/fixtures/no-cors/index.html');
    const element = mount({ src });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(element, 'error');
    expect(detail.code).to.equal('composition_not_found');
    expect(detail.message)
      .to.contain(src)
      .and.to.contain('CORS')
      .and.to.contain(`"Access-Control-Allow-Origin: ${location.origin}"`);
  });

  it("a seek after a failed load rejects with the load's code instead of waiting for a load that never comes", async () => {
    const element = mount({ src: '/test/fixtures/missing/index.html' });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(element, 'error');
    const refused = await element.seek(1).then(
      () => 'resolved',
      (error: unknown) => (isFxError(error) ? error.code : String(error)),
    );
    expect(refused).to.equal(detail.code);
  });

  it('declarations that are not JSON are an "error" saying where, shown on the stage', async () => {
    const declarations = [{ id: 'title', type: 'string', label: 'Title', default: 'x' }];
    const srcdoc = compositionHtml({ duration: 1, variables: declarations }).replace('[{', '[{}{');
    const element = mount({}, { srcdoc });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(element, 'error');
    expect(detail.code).to.equal('declaration_json_invalid');
    expect(detail.message).to.match(/not valid JSON at line 1, column 4 of data-composition-variables/);
    await nextEvent(element, 'ready');
    expect(element.shadowRoot!.querySelector('[part="errors"]')?.textContent).to.contain(detail.message);
  });

  it("a composition on another origin that sends CORS headers loads (the message's premise)", async () => {
    // The test server's static route answers with "Access-Control-Allow-Origin: *", as a CDN does.
    const element = mount({ src: otherOrigin('/static/fixtures/basic/index.html') });
    await nextEvent(element, 'ready');
    expect(element.duration).to.equal(4);
  });
});

describe('compileComposition: a failed fetch', () => {
  const failing: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));

  it("on this page's origin says what failed and nothing about CORS", async () => {
    const url = new URL('/test/fixtures/basic/index.html', location.href).href;
    const error = await compileComposition(url, { runtimeUrl: RUNTIME_URL, fetch: failing }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isFxError(error, 'composition_not_found')).to.equal(true);
    expect((error as Error).message).to.equal(`"${url}" could not be fetched: Failed to fetch`);
  });

  it('of a sub-composition on another origin names CORS in its issue', async () => {
    const sub = otherOrigin('/test/fixtures/no-cors/parts/label.html');
    const html = `<div data-composition-id="m" data-duration="1"><div data-composition-src="${sub}"></div></div>`;
    const compiled = await compileComposition(
      { html, url: location.href },
      { runtimeUrl: RUNTIME_URL, allowCompositionReadsUnder: [otherOrigin('/test/fixtures/no-cors/')] },
    );
    expect(compiled.issues).to.have.length(1);
    expect(compiled.issues[0]).to.include({ code: 'subcomposition_not_found', severity: 'error' });
    expect(compiled.issues[0]!.message).to.contain('CORS').and.to.contain('Access-Control-Allow-Origin');
  });
});
