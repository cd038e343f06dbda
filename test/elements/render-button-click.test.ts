// "Render this" from a real click (user-click.ts), as a user signs in: the sign-in window must open while the click
// still counts as a user gesture — in WebKit only before the click handler's first await, which a read of the stored
// session would be. Its own service and a fresh page: nothing is known about the session before the first test.
import { expect } from '@open-wc/testing';
import { openBrowserStore } from '../../src/auth/index.js';
import { StoreKey } from '../../src/auth/store.js';
import { outcome, setup, startService, type TestService } from './render-button-helpers.js';
import { SERVICE_START_TIMEOUT_MS } from '../auth/fixtures/test-config.js';
import { userClick } from '../user-click.js';

let service: TestService;

/**
 * Calls of `window.open` from now on: whether they came while the click was dispatched (between the window's capture
 * and bubble listeners, so not after an await in the handler: what WebKit requires, and Chromium and Firefox would
 * let pass) and whether the page had user activation then.
 */
function watchWindowOpen() {
  const calls: { inClick: boolean; userActive: boolean | undefined }[] = [];
  let inClick = false;
  const enter = () => (inClick = true);
  const leave = () => (inClick = false);
  window.addEventListener('click', enter, true);
  window.addEventListener('click', leave);
  const open = window.open;
  window.open = function (...args: Parameters<typeof window.open>) {
    calls.push({ inClick, userActive: navigator.userActivation?.isActive });
    return open.apply(window, args);
  };
  const stop = () => {
    window.open = open;
    window.removeEventListener('click', enter, true);
    window.removeEventListener('click', leave);
  };
  return { calls, stop };
}

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = await startService('render-button-click');
  await (await openBrowserStore()).delete(StoreKey.session('fx-browser', service.issuer));
});

describe('<fx-render-button> from a real click', () => {
  it('signed out: the click opens the sign-in window within its user gesture, signs in and renders', async function () {
    this.timeout(60_000);
    const { button, part } = await setup(service);
    const opened = watchWindowOpen();
    try {
      const ended = outcome(button);
      await userClick(part('button')!);
      const event = await ended;
      expect(event.type, JSON.stringify(event.detail)).to.equal('rendered');
      expect(opened.calls).to.have.length(1);
      expect(opened.calls[0]!.inClick, 'opened while the click was dispatched').to.equal(true);
      expect(opened.calls[0]!.userActive, 'user activation when the window opened').to.not.equal(false);
    } finally {
      opened.stop();
    }
  });

  it('signed in: a click renders without opening any window', async function () {
    this.timeout(60_000);
    const { button, part } = await setup(service);
    const opened = watchWindowOpen();
    try {
      const ended = outcome(button);
      await userClick(part('button')!);
      expect((await ended).type).to.equal('rendered');
      expect(opened.calls).to.deep.equal([]);
    } finally {
      opened.stop();
    }
  });
});
