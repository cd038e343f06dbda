// src/auth's code flow against the real authorization server, driven without a browser (the cookie jar of
// test/service/helpers): state checks, access_denied, refresh single flight, sign-out. The same flow in real
// browsers is test/auth/sign-in.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AuthErrorCode } from '../../src/auth/errors.js';
import { broadcastChannelLock } from '../../src/auth/lock.js';
import { BrowserSignIn } from '../../src/auth/sign-in.js';
import { MemoryCredentialStore, StoreKey } from '../../src/auth/store.js';
import type { Credentials } from '../../src/client/credentials.js';
import { isFxError } from '../../src/runtime/errors.js';
import {
  bearer,
  Browser,
  formAction,
  refresh,
  startOAuthService,
  type OAuthTestService,
} from '../service/helpers/oauth-flow.js';

const REDIRECT_URI = 'http://127.0.0.1:5999/signed-in';

/** `fetch` that counts token requests by grant type. */
function countingFetch() {
  const grants: string[] = [];
  const counted: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/token') && init?.body instanceof URLSearchParams)
      grants.push(init.body.get('grant_type') ?? '');
    return fetch(input, init);
  };
  return { fetch: counted, grants, refreshes: () => grants.filter((grant) => grant === 'refresh_token').length };
}

async function rejects(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isFxError(error, code), `expected ${code}, got ${String(error)} ${(error as { code?: string }).code}`);
    return true;
  });
}

describe('sign-in with src/auth against the real authorization server', () => {
  let service: OAuthTestService;
  let store: MemoryCredentialStore;
  let counter: ReturnType<typeof countingFetch>;
  let auth: BrowserSignIn;

  before(async () => {
    service = await startOAuthService({ oauth: { browserRedirectUris: [REDIRECT_URI], devAutoLogin: 'dev' } });
  });
  after(() => service.close());
  beforeEach(() => {
    store = new MemoryCredentialStore();
    counter = countingFetch();
    auth = new BrowserSignIn({ issuer: service.issuer, redirectUri: REDIRECT_URI, store, fetch: counter.fetch });
  });

  const options = () => ({ issuer: service.issuer, redirectUri: REDIRECT_URI, store, fetch: counter.fetch });

  /** The authorization URL the sign-in sends the browser to. */
  async function start(signIn = auth): Promise<URL> {
    let target: URL | undefined;
    await signIn.signInWithRedirect({ assign: (url) => (target = url) });
    return target!;
  }

  /** Where the (auto-login) server sends the browser back to. */
  async function redirectFor(url: URL): Promise<URL> {
    const { redirect } = await new Browser(service.url).follow(url.href);
    assert.ok(redirect, 'the sign-in ended with a redirect');
    return redirect;
  }

  const signedIn = async () => auth.completeSignIn(await redirectFor(await start()));

  test('the authorization request: PKCE S256, state, exact redirect URI, the fx-browser client', async () => {
    const url = await start();
    assert.equal(url.href.startsWith(`${service.issuer}/auth?`), true);
    const params = Object.fromEntries(url.searchParams);
    assert.equal(params.client_id, 'fx-browser');
    assert.equal(params.redirect_uri, REDIRECT_URI);
    assert.equal(params.code_challenge_method, 'S256');
    assert.match(params.code_challenge!, /^[\w-]{43}$/);
    assert.match(params.state!, /^[\w-]{20,}$/);
  });

  test('a completed sign-in stores tokens that /v3 takes; the session satisfies the client contract', async () => {
    const tokens = await signedIn();
    assert.equal(tokens.subject !== undefined && tokens.refreshToken !== undefined, true);
    const credentials: Credentials = auth;
    const header = await credentials.authorization();
    assert.equal(header, `Bearer ${tokens.accessToken}`);
    assert.equal((await fetch(`${service.url}/v3/account`, { headers: { authorization: header! } })).status, 200);
    assert.deepEqual(counter.grants, ['authorization_code']);
  });

  test('state: missing, wrong, replayed and nothing pending are told apart', async () => {
    const redirect = await redirectFor(await start());
    const without = new URL(redirect);
    without.searchParams.delete('state');
    await rejects(auth.completeSignIn(without), AuthErrorCode.stateMissing);
    const wrong = new URL(redirect);
    wrong.searchParams.set('state', 'not-the-state');
    await rejects(auth.completeSignIn(wrong), AuthErrorCode.stateMismatch);
    await auth.completeSignIn(redirect);
    await rejects(auth.completeSignIn(redirect), AuthErrorCode.stateReplayed);
    await rejects(auth.completeSignIn(wrong), AuthErrorCode.noPendingSignIn);
    // No token request for any of the refused redirects.
    assert.deepEqual(counter.grants, ['authorization_code']);
  });

  test('the verifier is used once: a second sign-in object on the same store cannot take it again', async () => {
    const redirect = await redirectFor(await start());
    await auth.completeSignIn(redirect);
    await rejects(new BrowserSignIn(options()).completeSignIn(redirect), AuthErrorCode.stateReplayed);
  });

  test('two sign-ins in progress (two tabs) each complete with their own verifier', async () => {
    const first = await redirectFor(await start());
    const second = await redirectFor(await start(new BrowserSignIn(options())));
    await auth.completeSignIn(second);
    await auth.completeSignIn(first);
  });

  test('the user refuses → auth_access_denied, and the state is used up', async () => {
    const manual = await startOAuthService({ oauth: { browserRedirectUris: [REDIRECT_URI] } });
    try {
      const signIn = new BrowserSignIn({ ...options(), issuer: manual.issuer });
      const browser = new Browser(manual.url);
      const { page } = await browser.follow((await start(signIn)).href);
      const { redirect } = await browser.post(formAction(await page!.text(), 'abort'), {});
      assert.equal(redirect?.searchParams.get('error'), 'access_denied');
      await rejects(signIn.completeSignIn(redirect!), AuthErrorCode.accessDenied);
      await rejects(signIn.completeSignIn(redirect!), AuthErrorCode.stateReplayed);
    } finally {
      await manual.close();
    }
  });

  test('5 concurrent refreshes after a 401 → one token request; each caller gets true', async () => {
    const tokens = await signedIn();
    const rejected = `Bearer ${tokens.accessToken}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => auth.refresh(rejected)));
    assert.deepEqual(results, [true, true, true, true, true]);
    assert.equal(counter.refreshes(), 1);
    assert.notEqual(await auth.authorization(), rejected);
    // A late caller with the old token: already replaced, no request.
    assert.equal(await auth.refresh(rejected), true);
    assert.equal(counter.refreshes(), 1);
  });

  test('two session objects sharing a store and the BroadcastChannel lock (two tabs) → one token request', async () => {
    const tokens = await signedIn();
    const tab1 = new BrowserSignIn({ ...options(), lock: broadcastChannelLock });
    const tab2 = new BrowserSignIn({ ...options(), lock: broadcastChannelLock });
    const rejected = `Bearer ${tokens.accessToken}`;
    assert.deepEqual(
      await Promise.all([
        tab1.refresh(rejected),
        tab2.refresh(rejected),
        tab1.refresh(rejected),
        tab2.refresh(rejected),
      ]),
      [true, true, true, true],
    );
    assert.equal(counter.refreshes(), 1);
    // The rotated refresh token was not reused: the sign-in is still live.
    assert.equal(
      (await fetch(`${service.url}/v3/account`, { headers: { authorization: (await tab2.authorization())! } })).status,
      200,
    );
  });

  test('an access token about to expire is refreshed before it is handed out', async () => {
    const tokens = await signedIn();
    await store.set(StoreKey.session('fx-browser', service.issuer), { ...tokens, expiresAt: Date.now() + 5_000 });
    const header = await auth.authorization();
    assert.notEqual(header, `Bearer ${tokens.accessToken}`);
    assert.equal(counter.refreshes(), 1);
  });

  test('a refused refresh token (grant revoked) clears the session: refresh → false, authorization → undefined', async () => {
    const tokens = await signedIn();
    // Reusing a rotated refresh token revokes the grant (oidc-provider), as a stolen token would.
    assert.equal((await refresh(service.issuer, 'fx-browser', tokens.refreshToken!)).status, 200);
    assert.equal(await auth.refresh(`Bearer ${tokens.accessToken}`), false);
    assert.equal(await auth.authorization(), undefined);
    assert.equal(await auth.signedIn(), false);
  });

  test('the server unreachable during refresh → auth_refresh_failed, session kept', async () => {
    const tokens = await signedIn();
    const offline = new BrowserSignIn({
      ...options(),
      fetch: async () => Promise.reject(new TypeError('fetch failed')),
    });
    await rejects(offline.refresh(`Bearer ${tokens.accessToken}`), AuthErrorCode.refreshFailed);
    assert.equal(await auth.signedIn(), true);
  });

  test('sign-out revokes at the server and clears the store', async () => {
    const tokens = await signedIn();
    await auth.signOut();
    assert.equal(await auth.signedIn(), false);
    assert.equal((await fetch(`${service.url}/v3/account`, bearer(tokens.accessToken))).status, 401);
    const reuse = await refresh(service.issuer, 'fx-browser', tokens.refreshToken!);
    assert.equal(reuse.body.error, 'invalid_grant');
    // Signed out already: nothing to do.
    await auth.signOut();
  });

  test('sign-out with the server unreachable clears here and says so', async () => {
    await signedIn();
    await rejects(
      new BrowserSignIn({ ...options(), fetch: async () => Promise.reject(new TypeError('fetch failed')) }).signOut(),
      AuthErrorCode.revocationFailed,
    );
    assert.equal(await auth.signedIn(), false);
  });

  test('options: an http issuer off loopback, or a redirect URI that is not a URL → auth_option_invalid', () => {
    for (const bad of [
      { issuer: 'http://example.com/oauth' },
      { redirectUri: 'javascript:alert(1)' },
      { issuer: 'https://user:pw@example.com/oauth' },
    ]) {
      assert.throws(
        () => new BrowserSignIn({ ...options(), ...bad }),
        (error: unknown) => isFxError(error, AuthErrorCode.optionInvalid),
      );
    }
  });
});
