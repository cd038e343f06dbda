import * as oauth from 'oauth4webapi';
import { connectIssuer, type IssuerConnection, type IssuerOptions } from './authorization-server.js';
import { authError, AuthErrorCode } from './errors.js';
import { defaultLock, type LockRunner } from './lock.js';
import { StoreKey, type CredentialStore } from './store.js';
import { bearer, isStale, isTokenRecord, tokenRecord, type TokenRecord } from './tokens.js';

export interface SessionOptions extends IssuerOptions {
  /** Where tokens live. Default in a browser: {@link openBrowserStore} (IndexedDB, else memory). */
  readonly store: CredentialStore | Promise<CredentialStore>;
  /** Cross-tab exclusion for refresh and sign-out. Default: Web Locks, else BroadcastChannel, else none. */
  readonly lock?: LockRunner;
  readonly now?: () => number;
}

/**
 * A signed-in user's tokens at one issuer, for one client: what the `/v3` client asks of credentials
 * (`authorization()`, `refresh(rejected)`), plus sign-out. Refreshes are single-flight in this object (one
 * promise) and across tabs (one lock); after taking the lock it reads the store again, so a refresh another tab
 * just did is used instead of repeated — a repeat would reuse a rotated refresh token, which revokes the sign-in.
 */
export class OAuthSession {
  protected readonly connection: IssuerConnection;
  protected readonly storeReady: Promise<CredentialStore>;
  protected readonly sessionKey: string;
  protected readonly now: () => number;
  private readonly lock: LockRunner;
  private readonly lockName: string;
  private inflight: Promise<boolean> | undefined;
  #known: boolean | undefined;

  constructor(options: SessionOptions) {
    this.connection = connectIssuer(options);
    this.storeReady = Promise.resolve(options.store);
    const { issuer, client } = this.connection;
    this.sessionKey = StoreKey.session(client.client_id, issuer.href);
    this.lockName = `fx-auth:${client.client_id}@${issuer.href}`;
    this.lock = options.lock ?? defaultLock();
    this.now = options.now ?? Date.now;
  }

  /** The stored tokens, or `undefined` when signed out. */
  async tokens(): Promise<TokenRecord | undefined> {
    const value = await (await this.storeReady).get(this.sessionKey);
    this.#known = isTokenRecord(value);
    return isTokenRecord(value) ? value : undefined;
  }

  /**
   * Whether this object last saw the user signed in (its last read or write of the store), without awaiting: what a
   * click handler can know before its first `await` (after which WebKit no longer lets it open a window).
   * `undefined` before the first read; a sign-out in another tab is seen at the next read.
   */
  get signedInNow(): boolean | undefined {
    return this.#known;
  }

  async signedIn(): Promise<boolean> {
    return (await this.tokens()) !== undefined;
  }

  /** `Bearer …` for the next request, refreshed first when it expires within the skew; `undefined` signed out. */
  async authorization(): Promise<string | undefined> {
    const current = await this.tokens();
    if (!current) return undefined;
    if (!isStale(current, this.now())) return bearer(current);
    if (!(await this.refresh(bearer(current)))) return undefined;
    const next = await this.tokens();
    return next && bearer(next);
  }

  /**
   * After a 401 to a request sent with `rejected`: `true` once a different access token is stored (refreshed here,
   * or already by another caller or tab), `false` when signed out or the server refused the refresh token (the
   * session is then cleared). Network and server failures throw `auth_refresh_failed` and keep the session.
   */
  refresh(rejected: string | undefined): Promise<boolean> {
    this.inflight ??= this.lock(this.lockName, () => this.refreshHoldingLock(rejected)).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /**
   * Clears the session here and revokes the refresh token (which ends the grant and its access tokens) and the
   * access token at the server. Throws `auth_revocation_failed` when the server could not be told; the local
   * session is gone either way.
   */
  async signOut(): Promise<void> {
    const current = await this.lock(this.lockName, async () => {
      const tokens = await this.tokens();
      await this.clear();
      return tokens;
    });
    if (!current) return;
    const failures: unknown[] = [];
    const hinted = [
      [current.refreshToken, 'refresh_token'],
      [current.accessToken, 'access_token'],
    ] as const;
    for (const [token, hint] of hinted) {
      if (token === undefined) continue;
      try {
        const as = await this.connection.metadata();
        const response = await oauth.revocationRequest(as, this.connection.client, oauth.None(), token, {
          ...this.connection.http,
          additionalParameters: { token_type_hint: hint },
        });
        await oauth.processRevocationResponse(response);
      } catch (error) {
        // A server that cannot revoke that kind of token (JWT access tokens): revoking the refresh token ended them.
        if (!(error instanceof oauth.ResponseBodyError && error.error === 'unsupported_token_type'))
          failures.push(error);
      }
    }
    if (failures.length)
      throw authError(
        AuthErrorCode.revocationFailed,
        'signed out here, but the sign-in server could not be told; the sign-in may stay valid there until it expires',
        { cause: failures[0] },
      );
  }

  /** Stores a fresh token response (sign-in or refresh). */
  /**
   * Finishes an authorization code + PKCE sign-in: checks the redirect (`state`, `error=access_denied` →
   * `auth_access_denied`, any other error → `auth_authorization_failed`), exchanges the code with `verifier` and
   * stores the tokens (`auth_token_request_failed` when the exchange fails). Shared by the browser and loopback flows.
   */
  protected async exchangeCode(
    callback: URL,
    pending: { readonly state: string; readonly redirectUri: string; readonly verifier: string },
  ): Promise<TokenRecord> {
    const as = await this.connection.metadata();
    const { client, http } = this.connection;
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, pending.state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied') {
        throw authError(
          AuthErrorCode.accessDenied,
          `the sign-in was refused: ${error.error_description ?? 'access_denied'}`,
          {
            cause: error,
          },
        );
      }
      throw authError(
        AuthErrorCode.authorizationFailed,
        `the sign-in server ended the sign-in: ${error instanceof oauth.AuthorizationResponseError ? error.error : String(error)}`,
        { cause: error },
      );
    }
    let response: Response | undefined;
    try {
      response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        pending.redirectUri,
        pending.verifier,
        http,
      );
      return await this.save(await oauth.processAuthorizationCodeResponse(as, client, response));
    } catch (error) {
      throw authError(
        AuthErrorCode.tokenRequestFailed,
        'the sign-in code could not be exchanged for tokens; start the sign-in again',
        { cause: error, ...(response ? { status: response.status } : {}) },
      );
    }
  }

  protected async save(response: oauth.TokenEndpointResponse, previous?: TokenRecord): Promise<TokenRecord> {
    const record = tokenRecord(response, this.now(), previous);
    await (await this.storeReady).set(this.sessionKey, record);
    this.#known = true;
    return record;
  }

  private async clear(): Promise<void> {
    await (await this.storeReady).delete(this.sessionKey);
    this.#known = false;
  }

  private async refreshHoldingLock(rejected: string | undefined): Promise<boolean> {
    const current = await this.tokens();
    if (!current) return false;
    // Nothing was sent, or what was sent has been replaced meanwhile: the stored token is the answer.
    if (rejected === undefined || rejected !== bearer(current)) return true;
    if (current.refreshToken === undefined) {
      await this.clear();
      return false;
    }
    let response: Response | undefined;
    try {
      const as = await this.connection.metadata();
      response = await oauth.refreshTokenGrantRequest(
        as,
        this.connection.client,
        oauth.None(),
        current.refreshToken,
        this.connection.http,
      );
      await this.save(await oauth.processRefreshTokenResponse(as, this.connection.client, response), current);
      return true;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
        await this.clear();
        return false;
      }
      throw authError(AuthErrorCode.refreshFailed, 'the access token could not be refreshed; try again', {
        cause: error,
        ...(response ? { status: response.status } : {}),
      });
    }
  }
}
