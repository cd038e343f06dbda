import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { compositionHtml, mount, nextEvent, probe, sleep, waitFor, whenReady } from '../elements/helpers.js';
import { requestLog } from './hostile.js';

/**
 * Font values name files the host fetches for the frame (an opaque origin cannot load fonts without CORS). The host
 * must not become a cookie-authenticated reader for the composition or for whoever wrote the values.
 */
describe('security: <fx-composition> font sources', () => {
  const FONT_SIZE = 20;
  const WIDE_WIDTH = 3 * 3 * FONT_SIZE;
  const composition = compositionHtml({
    variables: [{ id: 'face', type: 'font', label: 'Face', default: 'monospace' }],
    body: `<span id="wide" style="font-size: ${FONT_SIZE}px; font-family: var(--face), monospace; white-space: pre">WWW</span>`,
  });
  /** Everything the frame can read of its values, as text. */
  const frameValues = async (el: Element) =>
    JSON.stringify([await probe(el, { ask: 'global', name: '__fxVariables' }), await probe(el, { ask: 'runtime' })]);

  before(() => {
    document.cookie = 'fx_session=secret; path=/';
  });
  after(() => {
    document.cookie = 'fx_session=; path=/; max-age=0';
  });

  it('a value of an undeclared key shaped { name, source } is not fetched at all', async () => {
    const log = requestLog();
    const el = await whenReady(
      mount(
        { variables: JSON.stringify({ stolen: { name: 'X', source: log.url('secret.json') } }) },
        { srcdoc: composition },
      ),
    );
    await sleep(100);
    expect(await log.requests()).to.deep.equal([]);
    expect(await frameValues(el)).not.to.include('data:');
  });

  it('a declared font source is fetched without cookies, at load and live, and still applies', async () => {
    const log = requestLog();
    const el = await whenReady(
      mount(
        { variables: JSON.stringify({ face: { name: 'FxWideA', source: log.url('font.ttf') } }) },
        { srcdoc: composition },
      ),
    );
    expect(await probe(el, { ask: 'width', selector: '#wide' })).to.equal(WIDE_WIDTH);
    el.variables = { face: { name: 'FxWideB', source: log.url('font.bin') } };
    await nextEvent(el, 'variableschange');
    await waitFor(async () => (await log.requests()).length === 2, 'the live source to be fetched');
    expect(await log.requests()).to.deep.equal([
      { kind: 'font.ttf', cookie: false },
      { kind: 'font.bin', cookie: false },
    ]);
  });

  for (const kind of ['secret.json', 'page.html', 'fake.woff2'] as const) {
    it(`a declared font source answering ${kind} is refused with "font_source_not_font" and its bytes never reach the frame`, async () => {
      const log = requestLog();
      const el = mount(
        { variables: JSON.stringify({ face: { name: 'Evil', source: log.url(kind) } }) },
        { srcdoc: composition },
      );
      const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
      expect(detail.code).to.equal('font_source_not_font');
      expect(detail.issues?.map((found) => found.path)).to.deep.equal([['face', 'source']]);
      await whenReady(el);
      const seen = await frameValues(el);
      expect(seen).not.to.include('data:');
      expect(seen).not.to.include('host-only');
    });
  }

  it('a live value answering a non-font is refused the same way', async () => {
    const log = requestLog();
    const el = await whenReady(mount({}, { srcdoc: composition }));
    el.variables = { face: { name: 'Evil', source: log.url('secret.json') } };
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    expect(detail.code).to.equal('font_source_not_font');
    await nextEvent(el, 'variableschange');
    expect(await frameValues(el)).not.to.include('host-only');
  });
});
