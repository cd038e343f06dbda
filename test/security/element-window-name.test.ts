import { expect } from '@open-wc/testing';
import { isFirefox } from '../browsers.js';
import { frameOf, mount, nextEvent, probe, waitFor, whenReady } from '../elements/helpers.js';
import { hostileComposition } from './hostile.js';

/**
 * A composition can name its own window (`window.name = 'fx-capture'`), and the host page's
 * `window.open(url, 'fx-capture')` looks names up among all frames of its page: a browser rule the element cannot
 * change (it cannot read or reset the name of a cross-origin frame). These tests pin down what Chromium and Firefox do, for
 * SECURITY.md; the mitigation is on the host: open named windows only with names no composition can guess
 * (`noopener` alone does not stop the lookup).
 */
describe('security: <fx-composition> and window names', () => {
  const URL_TO_OPEN = '/test/fixtures/security/opened.html';

  it('window.open(url, name) with the name a composition took navigates the composition’s frame (a browser rule)', async () => {
    const el = await whenReady(mount({}, { srcdoc: hostileComposition(['take-name']) }));
    const frame = frameOf(el);
    const navigated = nextEvent(frame, 'load', 4000);
    const opened = window.open(URL_TO_OPEN, 'fx-capture');
    try {
      expect(opened === frame.contentWindow, 'window.open returned the composition frame').to.equal(true);
      await navigated;
    } finally {
      if (opened && opened !== frame.contentWindow) opened.close();
    }
  });

  it('window.open("", name) hands the host the composition’s window itself, which then reads what the host posts', async () => {
    const el = await whenReady(mount({}, { srcdoc: hostileComposition(['take-name']) }));
    const frame = frameOf(el);
    const opened = window.open('', 'fx-capture');
    expect(opened === frame.contentWindow, 'window.open returned the composition frame').to.equal(true);
    opened!.postMessage({ forPopup: 'token' }, '*');
    await waitFor(
      async () => ((await probe<string[]>(el, { ask: 'global', name: 'hostileInbox' })) ?? []).length > 0,
      'the frame to get the message',
    );
    expect(await probe(el, { ask: 'global', name: 'hostileInbox' })).to.deep.equal(['token']);
  });

  // Browsers differ here: Chromium still looks the name up (and navigates the frame), Firefox opens a new window.
  it(`"noopener" ${isFirefox ? 'stops the lookup (Firefox)' : 'does not help: the name is still looked up, and the frame navigated (Chromium)'}`, async () => {
    const el = await whenReady(mount({}, { srcdoc: hostileComposition(['take-name']) }));
    const navigated = nextEvent(frameOf(el), 'load', isFirefox ? 1500 : 4000).then(
      () => true,
      () => false,
    );
    expect(window.open(URL_TO_OPEN, 'fx-capture', 'noopener')).to.equal(null);
    expect(await navigated).to.equal(!isFirefox);
  });
});
