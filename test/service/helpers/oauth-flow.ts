/**
 * Drives the built-in authorization server over real HTTP without a browser: a cookie jar that follows
 * redirects by hand, PKCE pairs, a loopback receiver for the CLI's redirect, and a service started with OAuth.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { ServiceConfig } from '../../../src/service/config.js';
import { openStores } from '../../../src/service/db/open-stores.js';
import { createOAuthServer, type OAuthServer } from '../../../src/service/oauth/oauth-server.js';
import { PasswordStore } from '../../../src/service/oauth/passwords.js';
import { SIGNING_KEYS_SETTING } from '../../../src/service/oauth/signing-keys.js';
import type { OAuthSettings } from '../../../src/service/oauth/settings.js';
import { createService, type Service } from '../../../src/service/service.js';
import { newTestLocation, removeTestLocation, type TestLocation } from './database.js';
import { createFfmpegRenderer } from './ffmpeg-renderer.js';

export const PASSWORD = 'correct horse battery';

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OAuthTestService {
  readonly url: string;
  readonly issuer: string;
  readonly dataDir: string;
  readonly location: TestLocation;
  readonly port: number;
  readonly service: Service;
  readonly oauth: OAuthServer;
  /** Creates (or finds) an account with the test password; returns its id. */
  account(name: string, password?: string): Promise<string>;
  /** Stops the service and the authorization server; the data folder stays. */
  stop(): Promise<void>;
  /** Stops and removes the data folder. */
  close(): Promise<void>;
}

export interface OAuthTestOptions {
  readonly oauth?: Partial<OAuthSettings>;
  readonly service?: Partial<ServiceConfig>;
  /** Reuse a data folder, database and port (restart). */
  readonly location?: TestLocation;
  readonly port?: number;
}

export async function startOAuthService(options: OAuthTestOptions = {}): Promise<OAuthTestService> {
  const location = options.location ?? (await newTestLocation('fx-oauth-test-'));
  const { dataDir } = location;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const oauth = await createOAuthServer({
    ...location,
    issuer: `${url}/oauth`,
    browserRedirectUris: ['http://127.0.0.1:5173/demo/'],
    ...options.oauth,
  });
  const service = await createService({
    ...location,
    render: createFfmpegRenderer(),
    authenticators: [oauth.authenticator],
    routes: oauth.routes,
    ...options.service,
  });
  await service.listen(port);
  // A connection of its own, like the admin command's (WAL lets it write while the service runs).
  const admin = await openStores(location);
  const passwords = new PasswordStore(admin.passwords);
  const stop = async () => {
    await service.close();
    await oauth.close();
    await admin.close();
  };
  return {
    url,
    issuer: oauth.issuer,
    dataDir,
    location,
    port,
    service,
    oauth,
    async account(name, password = PASSWORD) {
      const account = await service.context.accounts.ensure(name, Date.now());
      await passwords.set(account.id, password);
      return account.id;
    },
    stop,
    async close() {
      await stop();
      await removeTestLocation(location);
    },
  };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A cookie jar with manual redirects: what a browser does during a sign-in, and nothing more. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && new URL(url).origin === this.origin)
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some(
        (attribute) =>
          /^\s*max-age=0\s*$/i.test(attribute) ||
          (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1]!) < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /**
   * Follows redirects inside the service; stops at a page (returned as `page`) or at a redirect that leaves the
   * service (the client's redirect URI, returned as `redirect`).
   */
  async follow(url: string, init: RequestInit = {}): Promise<{ page?: Response; redirect?: URL }> {
    let response = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { page: response };
      const next = new URL(location, current);
      await response.arrayBuffer();
      if (next.origin !== this.origin) return { redirect: next };
      current = next.href;
      response = await this.request(current);
    }
    throw new Error('too many redirects');
  }

  /** Posts a form of the current page (`action` as written in the HTML). */
  post(action: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.follow(new URL(action, this.origin).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The `action` of a form button in a sign-in page (`formaction` for `name`, else the form's). */
export function formAction(html: string, kind: 'login' | 'confirm' | 'abort'): string {
  const match = new RegExp(`(?:action|formaction)="([^"]*/${kind})"`).exec(html);
  if (!match) throw new Error(`no ${kind} form in the page: ${html.slice(0, 300)}`);
  return match[1]!.replaceAll('&amp;', '&');
}

export interface AuthorizeParams {
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly scope?: string;
  readonly code_challenge?: string;
  readonly code_challenge_method?: string;
  readonly state?: string;
  readonly [extra: string]: string | undefined;
}

export function authorizeUrl(issuer: string, params: AuthorizeParams): string {
  const url = new URL(`${issuer}/auth`);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    scope: 'openid renders',
    state: 'st4te',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export interface SignIn {
  readonly code: string;
  readonly verifier: string;
  readonly redirect: URL;
}

/**
 * The whole interactive part: authorization request, login form (unless the browser is signed in), consent;
 * returns the code from the redirect. `deliver` receives the final redirect (e.g. to a loopback listener).
 */
export async function signIn(
  browser: Browser,
  issuer: string,
  options: {
    clientId: string;
    redirectUri: string;
    account: string;
    password?: string;
    deliver?: (redirect: URL) => Promise<URLSearchParams>;
  },
): Promise<SignIn> {
  const { verifier, challenge } = pkce();
  let step = await browser.follow(
    authorizeUrl(issuer, {
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  );
  for (let pages = 0; step.page && pages < 4; pages += 1) {
    const html = await step.page.text();
    if (step.page.status !== 200) throw new Error(`sign-in page answered ${step.page.status}: ${html.slice(0, 300)}`);
    step = html.includes('name="password"')
      ? await browser.post(formAction(html, 'login'), {
          account: options.account,
          password: options.password ?? PASSWORD,
        })
      : await browser.post(formAction(html, 'confirm'), {});
  }
  if (!step.redirect) throw new Error('the sign-in did not end with a redirect');
  const query = options.deliver ? await options.deliver(step.redirect) : step.redirect.searchParams;
  const code = query.get('code');
  if (!code) throw new Error(`no code in the redirect: ${step.redirect.href}`);
  return { code, verifier, redirect: step.redirect };
}

/** `POST /token` as a public client (form body, no authentication). */
export async function tokenRequest(
  issuer: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export const redeemCode = (
  issuer: string,
  clientId: string,
  signed: SignIn,
  redirectUri: string,
  verifier = signed.verifier,
) =>
  tokenRequest(issuer, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: signed.code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });

export const refresh = (issuer: string, clientId: string, refreshToken: string) =>
  tokenRequest(issuer, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/** A listener on 127.0.0.1 (random port) that records what arrives at `/callback`, like `fx auth login`. */
export class LoopbackReceiver {
  private readonly server: Server;
  private readonly received: URLSearchParams[] = [];
  private waiting: ((query: URLSearchParams) => void) | undefined;

  private constructor() {
    this.server = createHttpServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      response
        .writeHead(url.pathname === '/callback' ? 200 : 404, { 'content-type': 'text/plain' })
        .end('you can close this window');
      if (url.pathname !== '/callback') return;
      if (this.waiting) this.waiting(url.searchParams);
      else this.received.push(url.searchParams);
      this.waiting = undefined;
    });
  }

  static async start(): Promise<LoopbackReceiver> {
    const receiver = new LoopbackReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** Delivers a redirect to this listener (what the browser would do) and returns the query it received. */
  deliver = async (redirect: URL): Promise<URLSearchParams> => {
    const arrived = new Promise<URLSearchParams>((resolve) => {
      const early = this.received.shift();
      if (early) resolve(early);
      else this.waiting = resolve;
    });
    await (await fetch(redirect)).arrayBuffer();
    return arrived;
  };

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A JSON value as a JWS segment. */
export const encodeSegment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${encodeSegment(header)}.${encodeSegment(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

export async function cliTokens(test_: OAuthTestService, receiver: LoopbackReceiver, account = 'alice') {
  const signed = await signIn(new Browser(test_.url), test_.issuer, {
    clientId: 'fx-cli',
    redirectUri: receiver.redirectUri,
    account,
    deliver: receiver.deliver,
  });
  const { status, body } = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri);
  assert.equal(status, 200, JSON.stringify(body));
  return body as { access_token: string; refresh_token: string };
}

/** The signing keys the service keeps in its database, newest first (private JWKs). */
export async function storedSigningKeys(test_: OAuthTestService): Promise<(JsonWebKey & { kid: string })[]> {
  const stores = await openStores(test_.location);
  try {
    const text = await stores.settings.get(SIGNING_KEYS_SETTING);
    assert.ok(text, 'the service stored no signing keys');
    return (JSON.parse(text) as { keys: (JsonWebKey & { kid: string })[] }).keys;
  } finally {
    await stores.close();
  }
}
