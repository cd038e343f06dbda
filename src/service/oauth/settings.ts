import { DEFAULT_PORT } from '../main-defaults.js';
import { TrustedProxies } from '../http/client-address.js';
import { isLoopbackHostname } from '../../wire/loopback.js';

const MINUTE = 60;
const DAY = 86_400;

export const DEFAULT_ISSUER = `http://127.0.0.1:${DEFAULT_PORT}/oauth`;
/** The demo page of `npm start` (served by Vite on 5173). */
export const DEFAULT_BROWSER_REDIRECT_URIS = ['http://localhost:5173/demo/', 'http://127.0.0.1:5173/demo/'] as const;

/** Lifetimes in seconds; docs/service.md and openapi.yaml give the defaults. */
export interface OAuthLifetimes {
  /** JWT access tokens. Short: they are verified without a database look-up of the token itself. */
  readonly accessToken: number;
  /** Refresh tokens, rotated on every use. The browser client's rotations keep the first token's expiry. */
  readonly refreshToken: number;
  /** A consent (grant): after it, the user signs in again whatever the refresh tokens say. */
  readonly grant: number;
  /** The browser sign-in session cookie of the authorization server. */
  readonly session: number;
  /** One sign-in interaction (login + consent pages). */
  readonly interaction: number;
  readonly authorizationCode: number;
}

export const DEFAULT_LIFETIMES: OAuthLifetimes = {
  accessToken: 10 * MINUTE,
  refreshToken: 14 * DAY,
  grant: 30 * DAY,
  session: 1 * DAY,
  interaction: 15 * MINUTE,
  authorizationCode: 1 * MINUTE,
};

/** Limits of the sign-in form; docs/service.md gives the defaults. */
export interface SignInLimits {
  /** Wrong passwords for one account from one address before that pair is refused with 429. */
  readonly maxFailures: number;
  /** Seconds those failures are counted over (a sliding window). */
  readonly failureWindow: number;
  /** Password checks (scrypt) running at once. */
  readonly hashConcurrency: number;
  /** Password checks waiting for a slot; a sign-in beyond them gets 503. */
  readonly hashQueue: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  maxFailures: 5,
  failureWindow: 15 * MINUTE,
  hashConcurrency: 2,
  hashQueue: 16,
};

export interface OAuthSettings {
  /** The service data folder: holds `service.db` (records, without `databaseUrl`) and the signing key file. */
  readonly dataDir: string;
  /** The service's PostgreSQL database, when it has one (`ServiceConfig.databaseUrl`). */
  readonly databaseUrl?: string;
  /** Issuer identifier; its path is where the server is mounted. Default `http://127.0.0.1:8787/oauth`. */
  readonly issuer?: string;
  /** Resource indicator and `aud` of access tokens. Default: the issuer's origin + `/v3`. */
  readonly audience?: string;
  /** Exact redirect URIs of the `fx-browser` client. Default: the `npm start` demo page. */
  readonly browserRedirectUris?: readonly string[];
  readonly lifetimes?: Partial<OAuthLifetimes>;
  readonly signIn?: Partial<SignInLimits>;
  /**
   * Development only: every sign-in is this account, without a password or consent page. Refused unless the
   * issuer is on a loopback host. Off by default.
   */
  readonly devAutoLogin?: string;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client, for the sign-in limiter.
   * Default none: the connection's peer is the client.
   */
  readonly trustedProxies?: readonly string[];
  /** Operational log lines (never tokens, codes or passwords). */
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
}

export interface ResolvedOAuthSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly issuer: string;
  /** The issuer's path, e.g. `/oauth`: every route of the server is under it. */
  readonly mountPath: string;
  readonly audience: string;
  readonly browserRedirectUris: readonly string[];
  readonly lifetimes: OAuthLifetimes;
  readonly signIn: SignInLimits;
  readonly devAutoLogin: string | undefined;
  readonly trustedProxies: TrustedProxies;
  readonly log: (message: string, details?: Record<string, unknown>) => void;
}

export const OAuthSettingsErrorCode = {
  /** A setting of the authorization server that cannot work. */
  invalid: 'oauth_settings_invalid',
} as const;

/** A setting of the authorization server that cannot work; thrown at start-up. */
export class OAuthSettingsError extends Error {
  override name = 'OAuthSettingsError';
  readonly code = OAuthSettingsErrorCode.invalid;
}

export function resolveOAuthSettings(settings: OAuthSettings): ResolvedOAuthSettings {
  const issuer = parseIssuer(settings.issuer ?? DEFAULT_ISSUER);
  const lifetimes = { ...DEFAULT_LIFETIMES, ...settings.lifetimes };
  for (const [name, seconds] of Object.entries(lifetimes)) {
    if (!Number.isInteger(seconds) || seconds < 1)
      fail(`"lifetimes.${name}" must be a positive whole number of seconds, got ${seconds}`);
  }
  const signIn = { ...DEFAULT_SIGN_IN_LIMITS, ...settings.signIn };
  for (const [name, value] of Object.entries(signIn)) {
    const least = name === 'hashQueue' ? 0 : 1;
    if (!Number.isInteger(value) || value < least)
      fail(`"signIn.${name}" must be a whole number from ${least}, got ${value}`);
  }
  if (settings.devAutoLogin !== undefined && !isLoopbackHostname(issuer.hostname)) {
    fail(`"devAutoLogin" is a development setting and needs a loopback issuer, got ${JSON.stringify(issuer.href)}`);
  }
  const browserRedirectUris = [...(settings.browserRedirectUris ?? DEFAULT_BROWSER_REDIRECT_URIS)].map((uri) =>
    parseRedirectUri(uri),
  );
  return {
    dataDir: settings.dataDir,
    databaseUrl: settings.databaseUrl || undefined,
    issuer: issuer.href.replace(/\/+$/, ''),
    mountPath: issuer.pathname.replace(/\/+$/, ''),
    audience: parseAudience(settings.audience ?? `${issuer.origin}/v3`),
    browserRedirectUris,
    lifetimes,
    signIn,
    devAutoLogin: settings.devAutoLogin,
    trustedProxies: trustedProxiesOf(settings.trustedProxies ?? []),
    log: settings.log ?? (() => {}),
  };
}

function trustedProxiesOf(entries: readonly string[]): TrustedProxies {
  try {
    return new TrustedProxies(entries);
  } catch (error) {
    fail(`"trustedProxies" must list addresses: each ${(error as Error).message}`);
  }
}

function fail(message: string): never {
  throw new OAuthSettingsError(message);
}

function parseIssuer(value: string): URL {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    fail(`"issuer" must be an http(s) URL, got ${JSON.stringify(value)}`);
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname))
    fail(`"issuer" must use https unless its host is loopback, got ${JSON.stringify(value)}`);
  if (url.search || url.hash || url.username || url.password)
    fail(`"issuer" must have no query, fragment or credentials, got ${JSON.stringify(value)}`);
  const path = url.pathname.replace(/\/+$/, '');
  // The server is mounted at the issuer's path, next to `/v3`: it needs a path of its own.
  if (path === '' || path === '/v3' || path.startsWith('/v3/'))
    fail(`"issuer" must have a path of its own such as "/oauth", got ${JSON.stringify(value)}`);
  return url;
}

function parseAudience(value: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash)
    fail(`"audience" must be an absolute http(s) URL without a fragment, got ${JSON.stringify(value)}`);
  return value;
}

function parseRedirectUri(value: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash)
    fail(`"browserRedirectUris" must hold http(s) URLs without a fragment, got ${JSON.stringify(value)}`);
  return value;
}
