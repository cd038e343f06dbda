// Sign-in in real browsers against the real authorization server (started by test/fixtures/oauth-service.mjs,
// signing in as `wtr` without a form): the popup and redirect variants end to end, the popup's checks, refresh
// single flight with Web Locks, and IndexedDB failing.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  AuthErrorCode,
  BrowserSignIn,
  createBrowserSignIn,
  MemoryCredentialStore,
  openBrowserStore,
  saveApiKey,
  type CredentialStore,
} from '../../src/auth/index.js';
import { IDB_DATABASE } from '../../src/auth/store.idb.js';
import { StoreKey } from '../../src/auth/store.js';
import { CALLBACK_MESSAGE } from '../../src/auth/popup.js';
import type { Credentials } from '../../src/client/credentials.js';
import { isFxError } from '../../src/runtime/errors.js';
import { fromUserClick } from '../user-click.js';
import { REDIRECT_DONE, SERVICE_START_TIMEOUT_MS, saveTestConfig, type RedirectDone } from './fixtures/test-config.js';

interface TestService {
  url: string;
  issuer: string;
  redirectUris: string[];
}

let service: TestService;
let config: { issuer: string; redirectUri: string };

/** `fetch` that counts refresh-token requests. */
function countingFetch() {
  const counter = {
    refreshes: 0,
    fetch: ((input, init) => {
      if (init?.body instanceof URLSearchParams && init.body.get('grant_type') === 'refresh_token')
        counter.refreshes += 1;
      return fetch(input, init);
    }) as typeof fetch,
  };
  return counter;
}

async function expectCode(promise: Promise<unknown>, code: string) {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(
    isFxError(caught, code),
    `expected ${code}, got ${String(caught)} (${(caught as { code?: string })?.code})`,
  ).to.equal(true);
}

const accountStatus = (authorization: string | undefined) =>
  executeServerCommand<number, { authorization: string | undefined }>('fx-oauth-account', { authorization });

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = (await executeServerCommand<TestService, { origin: string }>('fx-oauth-service', {
    origin: location.origin,
  }))!;
  config = { issuer: service.issuer, redirectUri: service.redirectUris[0]! };
  saveTestConfig(config);
});

afterEach(async () => {
  const store = await openBrowserStore();
  await store.delete(StoreKey.session('fx-browser', service.issuer));
});

describe('sign-in in the browser, end to end', () => {
  it('signedInNow: unknown before the store was read, then what it last read or wrote, without awaiting', async () => {
    const auth = createBrowserSignIn(config);
    expect(auth.signedInNow).to.equal(undefined);
    expect(await auth.signedIn()).to.equal(false);
    expect(auth.signedInNow).to.equal(false);
    await fromUserClick(() => auth.signInWithPopup());
    expect(auth.signedInNow).to.equal(true);
    await auth.signOut();
    expect(auth.signedInNow).to.equal(false);
  });

  it('popup: the window opens, the server signs in and redirects, the redirect page posts back; /v3 takes the token', async () => {
    const auth = createBrowserSignIn(config);
    // Polling slower than the test: only the redirect page's message can finish the sign-in.
    const tokens = await fromUserClick(() => auth.signInWithPopup({ pollMs: 60_000 }));
    const credentials: Credentials = auth;
    expect(await credentials.authorization()).to.equal(`Bearer ${tokens.accessToken}`);
    expect(await accountStatus(await auth.authorization())).to.equal(200);
    // Kept in IndexedDB: another page of this origin is signed in too.
    expect((await createBrowserSignIn(config).tokens())?.accessToken).to.equal(tokens.accessToken);
  });

  it('redirect: an app tab goes to the server and back; the redirect page completes the sign-in into IndexedDB', async () => {
    const done = new Promise<RedirectDone>((resolve) => {
      window.addEventListener('message', function listen(event: MessageEvent<RedirectDone>) {
        if (event.origin !== location.origin || event.data?.type !== REDIRECT_DONE) return;
        window.removeEventListener('message', listen);
        resolve(event.data);
      });
    });
    const tab = await fromUserClick(() => window.open('/test/auth/fixtures/start-redirect.html', 'fx-test-redirect'));
    try {
      const result = await done;
      expect(result.code).to.equal(undefined);
      // The redirect page removed code and state from its address.
      expect(tab!.location.href).to.equal(config.redirectUri);
      const auth = createBrowserSignIn(config);
      expect((await auth.tokens())?.accessToken).to.equal(result.accessToken);
      expect(await accountStatus(await auth.authorization())).to.equal(200);
      await auth.signOut();
      expect(await accountStatus(`Bearer ${result.accessToken}`)).to.equal(401);
    } finally {
      tab?.close();
    }
  });

  it('5 concurrent refreshes, and a second session object (another tab’s) → one token request (Web Locks)', async () => {
    const counter = countingFetch();
    const tab1 = createBrowserSignIn({ ...config, fetch: counter.fetch });
    const tab2 = createBrowserSignIn({ ...config, fetch: counter.fetch });
    const tokens = await fromUserClick(() => tab1.signInWithPopup());
    const rejected = `Bearer ${tokens.accessToken}`;
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => tab1.refresh(rejected)),
      tab2.refresh(rejected),
      tab2.refresh(rejected),
    ]);
    expect(results).to.deep.equal([true, true, true, true, true, true, true]);
    expect(counter.refreshes).to.equal(1);
    expect(await accountStatus(await tab2.authorization())).to.equal(200);
  });

  it('two frames of the origin (two tabs, each its own session object) refresh at once → one token request', async () => {
    const tokens = await fromUserClick(() => createBrowserSignIn(config).signInWithPopup());
    const frames = [0, 1].map(() =>
      Object.assign(document.createElement('iframe'), { src: '/test/auth/fixtures/refresh-tab.html' }),
    );
    const answers = new Map<Window, { ready?: true; result?: boolean | string; refreshes?: number }>();
    const listen = (event: MessageEvent) => {
      if (event.origin === location.origin && event.source) answers.set(event.source as Window, event.data);
    };
    window.addEventListener('message', listen);
    const until = async (done: () => boolean) => {
      for (let waited = 0; !done(); waited += 20) {
        if (waited > 5000) throw new Error(`the frames did not answer: ${JSON.stringify([...answers.values()])}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      document.body.append(...frames);
      await until(() => frames.every((frame) => answers.get(frame.contentWindow!)?.ready));
      for (const frame of frames)
        frame.contentWindow!.postMessage({ rejected: `Bearer ${tokens.accessToken}`, config }, location.origin);
      await until(() => frames.every((frame) => answers.get(frame.contentWindow!)?.result !== undefined));
      const results = frames.map((frame) => answers.get(frame.contentWindow!)!);
      expect(results.map((answer) => answer.result)).to.deep.equal([true, true]);
      expect(results.reduce((sum, answer) => sum + answer.refreshes!, 0)).to.equal(1);
    } finally {
      window.removeEventListener('message', listen);
      for (const frame of frames) frame.remove();
    }
  });

  it('an expired access token is refreshed before a request', async () => {
    const counter = countingFetch();
    const auth = createBrowserSignIn({ ...config, fetch: counter.fetch });
    const tokens = await fromUserClick(() => auth.signInWithPopup());
    const store = await openBrowserStore();
    await store.set(StoreKey.session('fx-browser', service.issuer), { ...tokens, expiresAt: Date.now() - 1 });
    const header = await auth.authorization();
    expect(header).not.to.equal(`Bearer ${tokens.accessToken}`);
    expect(counter.refreshes).to.equal(1);
    expect(await accountStatus(header)).to.equal(200);
  });
});

describe('the popup, checked', () => {
  let realOpen: typeof window.open;
  beforeEach(() => (realOpen = window.open));
  afterEach(() => (window.open = realOpen));

  /** A stand-in for the popup: only what signInWithPopup touches. */
  function fakePopup() {
    const popup = { closed: false, location: { href: 'about:blank' }, close: () => (popup.closed = true) };
    window.open = () => popup as unknown as Window;
    return popup;
  }

  it('blocked (window.open gives null) → auth_popup_blocked', async () => {
    window.open = () => null;
    await expectCode(createBrowserSignIn(config).signInWithPopup(), AuthErrorCode.popupBlocked);
  });

  it('a window opened beforehand (openPopup) is the one used; a blocked one (null) is auth_popup_blocked at once', async () => {
    const auth = createBrowserSignIn(config);
    let opens = 0;
    window.open = () => (opens++, null);
    expect(auth.openPopup()).to.equal(null);
    await expectCode(auth.signInWithPopup({ window: null }), AuthErrorCode.popupBlocked);
    expect(opens, 'not opened a second time').to.equal(1);
    const popup = { closed: false, location: { href: 'about:blank' }, close: () => (popup.closed = true) };
    const signingIn = auth.signInWithPopup({ window: popup as unknown as Window, pollMs: 20 });
    // Sent once the PKCE challenge is made (crypto.subtle: later than 50 ms on a loaded machine).
    for (let waited = 0; popup.location.href === 'about:blank' && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(popup.location.href, 'sent to the sign-in server').to.match(/^http/);
    popup.closed = true;
    await expectCode(signingIn, AuthErrorCode.popupClosed);
    expect(opens).to.equal(1);
  });

  it('closed before the sign-in finished → auth_popup_closed; a look-alike message from another window is ignored', async () => {
    const popup = fakePopup();
    const auth = createBrowserSignIn(config);
    const signingIn = auth.signInWithPopup({ pollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Posted by this window, not the popup: must not complete the sign-in.
    window.postMessage({ type: CALLBACK_MESSAGE, location: `${config.redirectUri}?code=forged&state=forged` }, '*');
    await new Promise((resolve) => setTimeout(resolve, 50));
    popup.closed = true;
    await expectCode(signingIn, AuthErrorCode.popupClosed);
    expect(await auth.signedIn()).to.equal(false);
  });

  it('the opener polls a popup whose redirect page runs no script: back on our origin, the URL is read', async () => {
    const popup = fakePopup();
    const auth = createBrowserSignIn(config);
    const signingIn = auth.signInWithPopup({ pollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const state = new URL(popup.location.href).searchParams.get('state');
    expect(state).to.be.a('string');
    popup.location.href = `${config.redirectUri}?error=access_denied&state=${state}&iss=${encodeURIComponent(service.issuer)}`;
    await expectCode(signingIn, AuthErrorCode.accessDenied);
    expect(popup.closed).to.equal(true);
  });
});

describe('credential stores in the browser', () => {
  it('IndexedDB by default, in its own database', async () => {
    const store = await openBrowserStore();
    expect(store.kind).to.equal('indexeddb');
    await store.set('probe-value', { a: 1 });
    const names = (await indexedDB.databases()).map((database) => database.name);
    expect(names).to.include(IDB_DATABASE);
    await store.delete('probe-value');
  });

  it('indexedDB.open throwing → the memory store; sign-in still works, nothing is kept', async () => {
    const realOpen = IDBFactory.prototype.open;
    IDBFactory.prototype.open = () => {
      throw new DOMException('blocked by the test', 'SecurityError');
    };
    let store: CredentialStore;
    try {
      store = await openBrowserStore();
      expect(store.kind).to.equal('memory');
      const auth = new BrowserSignIn({ ...config, store });
      await fromUserClick(() => auth.signInWithPopup());
      expect(await auth.signedIn()).to.equal(true);
    } finally {
      IDBFactory.prototype.open = realOpen;
    }
    expect(await createBrowserSignIn(config).signedIn()).to.equal(false);
  });

  it('an IndexedDB open that fails later (error event, here a VersionError) → the memory store', async () => {
    const name = `fx-test-newer-${Math.random()}`;
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 2);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    newer.close();
    const realOpen = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory) {
      return realOpen.call(this, name, 1);
    };
    try {
      expect((await openBrowserStore()).kind).to.equal('memory');
    } finally {
      IDBFactory.prototype.open = realOpen;
      indexedDB.deleteDatabase(name);
    }
  });

  it('an API key is not persisted in IndexedDB unless the caller opts in; memory takes it', async () => {
    const store = await openBrowserStore();
    await expectCode(saveApiKey(store, 'fx_key_1'), AuthErrorCode.apiKeyNotPersisted);
    expect(await store.get(StoreKey.apiKey)).to.equal(undefined);
    await saveApiKey(new MemoryCredentialStore(), 'fx_key_1');
    await saveApiKey(store, 'fx_key_1', { unsafePersistInBrowser: true });
    expect(await store.get(StoreKey.apiKey)).to.equal('fx_key_1');
    await store.delete(StoreKey.apiKey);
  });
});
