import * as oauth from 'oauth4webapi';
import { isLoopbackHostname } from '../wire/loopback.js';
import { authError, AuthErrorCode } from './errors.js';

/** The registered public client of the browser SDK (src/service/oauth/constants.ts `OAuthClientId.browser`). */
export const BROWSER_CLIENT_ID = 'fx-browser';
/** `openid` names the account (`sub`); `renders` is everything under `/v3`. */
export const DEFAULT_SCOPE = 'openid renders';

/** The parsed issuer and what oauth4webapi needs for every request to it. */
export interface IssuerConnection {
  readonly issuer: URL;
  readonly client: oauth.Client;
  /** Options of every oauth4webapi request: our `fetch`, and plain http for a loopback issuer only. */
  readonly http: oauth.HttpRequestOptions<'GET' | 'POST', URLSearchParams | undefined>;
  /** The server's metadata, fetched once (again after a failure). */
  metadata(): Promise<oauth.AuthorizationServer>;
}

export interface IssuerOptions {
  /** The issuer identifier, e.g. `http://127.0.0.1:8787/oauth`. http is taken for a loopback host only. */
  readonly issuer: string;
  readonly clientId?: string;
  readonly fetch?: typeof fetch;
}

/** Parses `name` as an http(s) URL; http only on a loopback host, as the server itself requires of its issuer. */
export function parseHttpUrl(name: string, value: string): URL {
  const url = URL.parse(value);
  const ok = url && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHostname(url.hostname)));
  if (!ok || url.hash || url.username || url.password) {
    throw authError(
      AuthErrorCode.optionInvalid,
      `"${name}" must be an https URL (http on a loopback host) without fragment or credentials, got ${JSON.stringify(value)}`,
    );
  }
  return url;
}

export function connectIssuer(options: IssuerOptions): IssuerConnection {
  const issuer = parseHttpUrl('issuer', options.issuer);
  const http: IssuerConnection['http'] = {
    [oauth.allowInsecureRequests]: issuer.protocol === 'http:',
    // A bare `fetch` reference loses its `this` (window) when oauth4webapi calls it.
    [oauth.customFetch]: (url, init) => (options.fetch ?? fetch)(url, init),
  };
  let metadata: Promise<oauth.AuthorizationServer> | undefined;
  const discover = async () => {
    try {
      // oidc-provider serves OpenID discovery under the issuer's path (`/oauth/.well-known/openid-configuration`).
      const response = await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oidc' });
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch (cause) {
      throw authError(
        AuthErrorCode.discoveryFailed,
        `the sign-in server at ${JSON.stringify(issuer.href)} could not be reached or is not that issuer`,
        { cause },
      );
    }
  };
  return {
    issuer,
    client: { client_id: options.clientId ?? BROWSER_CLIENT_ID },
    http,
    metadata() {
      metadata ??= discover().catch((error: unknown) => {
        metadata = undefined;
        throw error;
      });
      return metadata;
    },
  };
}
