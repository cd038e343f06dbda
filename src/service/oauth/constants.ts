/**
 * Public names of the built-in OAuth 2.0 authorization server, said once. openapi.yaml (securitySchemes.oauth2)
 * and docs/service.md document each of them.
 */

/** The two registered public clients (no secret, `token_endpoint_auth_method: none`, PKCE S256 required). */
export const OAuthClientId = {
  /** `<fx-composition>` / the browser SDK: exact redirect URIs (the demo origin by default). */
  browser: 'fx-browser',
  /** `fx auth login`: loopback redirects on any port (RFC 8252 §7.3). */
  cli: 'fx-cli',
} as const;
export type OAuthClientId = (typeof OAuthClientId)[keyof typeof OAuthClientId];

export const OAuthScope = {
  openid: 'openid',
  /** Everything under `/v3` for the signed-in account. */
  renders: 'renders',
} as const;

/** Path of the CLI's loopback redirect: `http://127.0.0.1:{port}/callback` (also `[::1]` and `localhost`). */
export const LOOPBACK_CALLBACK_PATH = '/callback';
export const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'] as const;

/** JWS algorithm of access tokens and ID tokens; the signing key is an EC P-256 key. */
export const SIGNING_ALG = 'ES256';
/** `typ` header of JWT access tokens (RFC 9068). */
export const ACCESS_TOKEN_TYP = 'at+jwt';
/** Claim of the access token naming its grant: the credential id of `/v3` (idempotency keys are scoped to it). */
export const GRANT_ID_CLAIM = 'grant_id';

/** Pages of the sign-in interaction, under the issuer's path. */
export const InteractionPath = {
  page: '/interaction/:uid',
  login: '/interaction/:uid/login',
  confirm: '/interaction/:uid/confirm',
  abort: '/interaction/:uid/abort',
} as const;

/** Fields of the sign-in form. */
export const LoginField = {
  account: 'account',
  password: 'password',
} as const;

/**
 * Where the authorization server kept its EC private key, under the service data folder, before the keys moved to
 * the database: taken over from there once (signing-keys.ts).
 */
export const SIGNING_KEYS_FILE = 'oauth-signing-keys.json';
