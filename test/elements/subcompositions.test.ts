import { expect } from '@open-wc/testing';
import { isWebKit, WebKitLacks } from '../browsers.js';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { mount, nextEvent, probe, recordEvents, sleep, whenReady } from './helpers.js';

const BROKEN = '/test/fixtures/broken/index.html';
const fixtureUrl = (path: string) => new URL(`/test/fixtures/broken/${path}`, location.href).href;

describe('<fx-composition> with a broken sub-composition', () => {
  it('is accessible', async () => {
    const el = await whenReady(mount({ src: BROKEN }));
    await expect(el).to.be.accessible();
  });

  it('fires error with the first code and every broken path, then gets ready', async () => {
    const el = mount({ src: BROKEN });
    const seen = recordEvents(el, ['error', 'loadedmetadata', 'ready']);
    const error = nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    await whenReady(el);
    const { detail } = await error;
    expect(detail.code).to.equal('project_file_missing');
    expect(detail.issues!.map((found) => [found.code, found.path])).to.deep.equal([
      ['project_file_missing', ['missing.html']],
      ['subcomposition_cycle', [fixtureUrl('loop.html'), fixtureUrl('loop.html')]],
    ]);
    expect(detail.message).to.include('missing.html');
    expect(seen).to.deep.equal(['error', 'loadedmetadata', 'ready']);
    expect(el.metadata!.issues.map((found) => found.code)).to.deep.equal([
      'project_file_missing',
      'subcomposition_cycle',
    ]);
  });

  it('does not bubble the error event to the window (it would read as an uncaught error)', async () => {
    let reachedWindow = false;
    const onError = () => (reachedWindow = true);
    window.addEventListener('error', onError);
    const el = mount({ src: BROKEN });
    await nextEvent(el, 'error');
    window.removeEventListener('error', onError);
    expect(reachedWindow).to.equal(false);
  });

  it('the rest still renders and plays', async () => {
    const el = await whenReady(mount({ src: BROKEN }));
    expect(await probe(el, { ask: 'text', selector: '#title' })).to.equal('Still playing');
    expect(await probe(el, { ask: 'text', selector: '#good .name' })).to.equal('Ada');
    expect(await probe(el, { ask: 'text', selector: '#loop .loop-content' })).to.equal('loop content');
    expect(await probe(el, { ask: 'attribute', selector: '#missing', name: 'data-fx-error' })).to.equal(
      'project_file_missing',
    );
    expect(await probe(el, { ask: 'text', selector: '#missing' })).to.equal('');
    await el.play();
    await sleep(250);
    expect(el.paused).to.equal(false);
    expect(el.currentTime).to.be.greaterThan(0.1);
  });

  it('shows no error status: the composition is playable', async () => {
    const el = await whenReady(mount({ src: BROKEN }));
    expect(el.shadowRoot!.querySelector('[part="status"]')).to.equal(null);
  });
});

describe('<fx-composition> failing to load', () => {
  const cases: [name: string, src: string, code: string][] = [
    ['an entry that answers 404', '/test/fixtures/nothing-here.html', 'composition_not_found'],
    ['an entry without a composition root', '/test/fixtures/probe.js', 'composition_invalid'],
  ];
  for (const [name, src, code] of cases) {
    it(`${name}: error "${code}" and a visible alert`, async () => {
      const el = mount({ src });
      const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
      expect(detail.code).to.equal(code);
      await el.updateComplete;
      const status = el.shadowRoot!.querySelector('[part="status"]')!;
      expect(status.getAttribute('role')).to.equal('alert');
      expect(status.textContent).to.equal(detail.message);
      expect(el.ready).to.equal(false);
    });
  }

  it('an empty srcdoc: error "composition_empty"', async () => {
    const el = mount({}, { srcdoc: '  ' });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    expect(detail.code).to.equal('composition_empty');
  });

  it('a composition script error reaches the host as error "script_error"', async () => {
    const srcdoc =
      '<div data-composition-id="x" data-duration="1"><script>setTimeout(() => { throw new Error("boom"); }, 0);</script></div>';
    const el = mount({}, { srcdoc });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    expect(detail.code).to.equal('script_error');
    expect(detail.message, WebKitLacks.scriptErrorMessage).to.include(isWebKit ? 'Script error.' : 'boom');
  });

  it('an unhandled promise rejection in a composition reaches the host as error "script_error"', async () => {
    const srcdoc =
      '<div data-composition-id="x" data-duration="1"><script>Promise.reject(new Error("lost promise"));</script></div>';
    const el = mount({}, { srcdoc });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    expect(detail.code).to.equal('script_error');
    expect(detail.message).to.include('lost promise');
  });
});
