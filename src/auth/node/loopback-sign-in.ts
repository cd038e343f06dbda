/**
 * Sign-in for a command-line tool (RFC 8252): authorization code + PKCE (S256) with the redirect caught by a
 * one-shot HTTP listener on 127.0.0.1 and a random port. The `state` is checked; the listener answers only
 * `/callback` and closes after the first redirect, the time limit or an abort.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { DEFAULT_SCOPE } from '../authorization-server.js';
import { authError, AuthErrorCode } from '../errors.js';
import { createPkce } from '../pkce.js';
import { OAuthSession } from '../session.js';
import type { TokenRecord } from '../tokens.js';

/** The registered public client of `fx auth login` (src/service/oauth/constants.ts `OAuthClientId.cli`). */
export const CLI_CLIENT_ID = 'fx-cli';
export const LOOPBACK_CALLBACK_PATH = '/callback';
export const DEFAULT_LOGIN_TIMEOUT_MS = 120_000;

export interface LoopbackSignInOptions {
  /** Called with the URL to open in a browser, once the listener is ready. */
  readonly onUrl: (url: URL) => void;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly scope?: string;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>fx</title><p>${text}</p>`;

export class LoopbackSignIn extends OAuthSession {
  /** Runs one sign-in and stores its tokens; rejects with `auth_login_timeout` when no redirect came in time. */
  async signIn(options: LoopbackSignInOptions): Promise<TokenRecord> {
    const as = await this.connection.metadata();
    if (!as.authorization_endpoint)
      throw authError(AuthErrorCode.discoveryFailed, 'the sign-in server names no authorization endpoint');
    const { verifier, challenge } = await createPkce();
    const state = oauth.generateRandomState();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    try {
      const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${LOOPBACK_CALLBACK_PATH}`;
      const url = new URL(as.authorization_endpoint);
      const params = {
        client_id: this.connection.client.client_id,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: options.scope ?? DEFAULT_SCOPE,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      const arrived = waitForRedirect(server, options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS, options.signal);
      options.onUrl(url);
      const { callback, respond } = await arrived;
      try {
        const tokens = await this.exchangeCode(callback, { state, redirectUri, verifier });
        respond(200, PAGE('Signed in. You can close this window and go back to the terminal.'));
        return tokens;
      } catch (error) {
        respond(400, PAGE('The sign-in did not complete; see the terminal.'));
        throw error;
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }
}

/** The first request to the callback path; anything else gets a 404 and the wait goes on. */
function waitForRedirect(
  server: Server,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ callback: URL; respond: (status: number, html: string) => void }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        done(() =>
          reject(authError(AuthErrorCode.loginTimeout, `no sign-in arrived within ${Math.round(timeoutMs / 1000)} s`)),
        ),
      timeoutMs,
    );
    const onAbort = () => done(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      server.removeAllListeners('request');
      settle();
    };
    server.on('request', (request, response) => {
      const callback = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method !== 'GET' || callback.pathname !== LOOPBACK_CALLBACK_PATH) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      done(() =>
        resolve({
          callback,
          respond: (status, html) =>
            response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html),
        }),
      );
    });
  });
}
