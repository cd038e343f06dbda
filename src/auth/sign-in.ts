import * as oauth from 'oauth4webapi';
import { DEFAULT_SCOPE, parseHttpUrl } from './authorization-server.js';
import { authError, AuthErrorCode } from './errors.js';
import { addPending, dropPending, peekPending, takePending } from './pending.js';
import { createPkce } from './pkce.js';
import { CALLBACK_MESSAGE, isRedirectResponse, waitForPopupRedirect, type CallbackMessage } from './popup.js';
import { OAuthSession, type SessionOptions } from './session.js';
import { openBrowserStore } from './store.idb.js';
import { MemoryCredentialStore, type CredentialStore } from './store.js';
import type { TokenRecord } from './tokens.js';

export interface BrowserSignInOptions extends Omit<SessionOptions, 'store'> {
  /** A page of this app registered as a redirect URI of the client (exactly, query and all). */
  readonly redirectUri: string;
  /** Default `openid renders`. */
  readonly scope?: string;
  /** Default {@link openBrowserStore}: IndexedDB, or memory where IndexedDB is unavailable. */
  readonly store?: CredentialStore | Promise<CredentialStore>;
}

export interface PopupOptions {
  /** `window.open` features. Default: a 480×640 window. */
  readonly features?: string;
  /** How often the opener checks whether the popup was closed or came back. Default 250 ms. */
  readonly pollMs?: number;
  /**
   * The window {@link BrowserSignIn.openPopup} opened for this sign-in in the click (`null`: it was blocked), for a
   * handler that must await something before it knows a sign-in is needed. Default: opened here.
   */
  readonly window?: Window | null;
}

/** The `window.open` target name of the sign-in popup. */
export const POPUP_NAME = 'fx-sign-in';
const PENDING_KEY = (sessionKey: string) => `pending:${sessionKey}`;

/**
 * Sign-in in a browser with authorization code + PKCE (S256): by redirect (`signInWithRedirect()`, then
 * `handleRedirect()` on the redirect page) or in a popup (`signInWithPopup()`). The `state` is checked and the
 * pending verifier is used once. The object is the signed-in session too: give it to the `/v3` client as its
 * credentials.
 *
 * @example
 * const auth = createBrowserSignIn({ issuer: 'http://127.0.0.1:8787/oauth', redirectUri: `${location.origin}/signed-in.html` });
 * button.onclick = () => auth.signInWithPopup();
 * // signed-in.html: await auth.handleRedirect();
 */
export class BrowserSignIn extends OAuthSession {
  readonly redirectUri: string;
  private readonly scope: string;
  /** Popup sign-ins keep their verifier in this page only: nothing to find for another page or tab. */
  private readonly popupPending = new MemoryCredentialStore();

  constructor(options: BrowserSignInOptions) {
    super({ ...options, store: options.store ?? openBrowserStore() });
    this.redirectUri = parseHttpUrl('redirectUri', options.redirectUri).href;
    this.scope = options.scope ?? DEFAULT_SCOPE;
  }

  /** Starts a sign-in by navigating this tab to the sign-in server; the redirect page calls {@link handleRedirect}. */
  async signInWithRedirect(options: { assign?: (url: URL) => void } = {}): Promise<void> {
    const url = await this.authorizationUrl(await this.storeReady);
    (options.assign ?? ((target: URL) => window.location.assign(target)))(url);
  }

  /**
   * Signs in in a popup window and resolves with the tokens once the redirect page reports back. Call it from a
   * click handler: the window is opened before anything is awaited, so popup blockers let it through.
   */
  async signInWithPopup(options: PopupOptions = {}): Promise<TokenRecord> {
    const popup = options.window === undefined ? this.openPopup(options) : options.window;
    // Said to the user who clicked; docs/client.md "Signing in" tells developers where to call this from.
    if (!popup)
      throw authError(
        AuthErrorCode.popupBlocked,
        'the browser blocked the sign-in window; allow pop-ups and try again',
      );
    let state: string | undefined;
    try {
      const url = await this.authorizationUrl(this.popupPending);
      state = url.searchParams.get('state') ?? undefined;
      popup.location.href = url.href;
      const location = await waitForPopupRedirect(popup, this.redirectUri, options.pollMs ?? 250);
      return await this.complete(this.popupPending, location);
    } catch (error) {
      if (state !== undefined) await dropPending(this.popupPending, this.pendingKey, state, this.now());
      throw error;
    } finally {
      popup.close();
    }
  }

  /**
   * Opens the (still empty) sign-in window, or gives `null` when the browser blocks it. Browsers let a page open a
   * window only while it handles a click, and WebKit only until the handler's first `await`: a handler that must
   * await something first (a stored session) opens the window before that, then hands it to
   * {@link signInWithPopup} or closes it.
   */
  openPopup(options: Pick<PopupOptions, 'features'> = {}): Window | null {
    return window.open('', POPUP_NAME, options.features ?? 'popup,width=480,height=640');
  }

  /**
   * Finishes a redirect sign-in from the redirect page's URL: checks `state` (codes `auth_state_missing`,
   * `auth_state_mismatch`, `auth_state_replayed`, `auth_no_pending_sign_in`), takes the pending verifier (used
   * once), handles `error=access_denied` (`auth_access_denied`), exchanges the code and stores the tokens.
   */
  async completeSignIn(location: string | URL): Promise<TokenRecord> {
    return this.complete(await this.storeReady, String(location));
  }

  /**
   * What the redirect page runs. In the sign-in popup (a sign-in this page did not start, and an opener on this
   * origin), posts the URL to the opener and resolves `undefined`; otherwise completes the redirect sign-in and
   * removes `code` and `state` from the address bar.
   */
  async handleRedirect(location: string = window.location.href): Promise<TokenRecord | undefined> {
    const url = new URL(location);
    const mine = await peekPending(await this.storeReady, this.pendingKey, url.searchParams.get('state'), this.now());
    if (!mine && window.opener) {
      (window.opener as Window).postMessage(
        { type: CALLBACK_MESSAGE, location } satisfies CallbackMessage,
        window.location.origin,
      );
      return undefined;
    }
    const tokens = await this.completeSignIn(url);
    if (isRedirectResponse(window.location.href, this.redirectUri))
      window.history.replaceState(window.history.state, '', this.redirectUri);
    return tokens;
  }

  private get pendingKey(): string {
    return PENDING_KEY(this.sessionKey);
  }

  private async authorizationUrl(pendingStore: CredentialStore): Promise<URL> {
    const as = await this.connection.metadata();
    if (!as.authorization_endpoint)
      throw authError(AuthErrorCode.discoveryFailed, 'the sign-in server names no authorization endpoint');
    const { verifier, challenge } = await createPkce();
    const state = oauth.generateRandomState();
    await addPending(pendingStore, this.pendingKey, {
      state,
      verifier,
      redirectUri: this.redirectUri,
      createdAt: this.now(),
    });
    const url = new URL(as.authorization_endpoint);
    const params = {
      client_id: this.connection.client.client_id,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.scope,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url;
  }

  private async complete(pendingStore: CredentialStore, location: string): Promise<TokenRecord> {
    const url = URL.parse(location);
    if (!url)
      throw authError(
        AuthErrorCode.stateMissing,
        `the sign-in redirect is not a URL, got ${JSON.stringify(location.slice(0, 200))}`,
      );
    const pending = await takePending(pendingStore, this.pendingKey, url.searchParams.get('state'), this.now());
    return this.exchangeCode(url, pending);
  }
}

/** A {@link BrowserSignIn} for the `fx-browser` client of `issuer`. */
export const createBrowserSignIn = (options: BrowserSignInOptions) => new BrowserSignIn(options);
