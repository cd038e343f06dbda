import { FxError } from '../runtime/errors.js';

/** Codes of the errors `src/auth` throws, said once; docs/client.md "Signing in" lists them. */
export const AuthErrorCode = {
  /** An option cannot work (issuer or redirect URI not an http(s) URL, …). */
  optionInvalid: 'auth_option_invalid',
  /** The authorization server's metadata could not be fetched or is not for this issuer. */
  discoveryFailed: 'auth_discovery_failed',
  /** The redirect came back without a `state` parameter. */
  stateMissing: 'auth_state_missing',
  /** The redirect's `state` is not the one of the sign-in in progress (another sign-in, or a forged redirect). */
  stateMismatch: 'auth_state_mismatch',
  /** The redirect's `state` was already used: a reloaded or replayed redirect page. */
  stateReplayed: 'auth_state_replayed',
  /** A redirect arrived but no sign-in was started here (or its storage is gone, or it expired). */
  noPendingSignIn: 'auth_no_pending_sign_in',
  /** The user (or the server for them) refused: `error=access_denied`. */
  accessDenied: 'auth_access_denied',
  /** The server ended the sign-in with another `error` (in `cause`). */
  authorizationFailed: 'auth_authorization_failed',
  /** `window.open` gave no window. */
  popupBlocked: 'auth_popup_blocked',
  /** The sign-in window was closed before the sign-in finished. */
  popupClosed: 'auth_popup_closed',
  /** Exchanging the code for tokens failed (refused, or an unusable answer). */
  tokenRequestFailed: 'auth_token_request_failed',
  /** Refreshing failed for a reason that may pass (network, server error); the session is kept. */
  refreshFailed: 'auth_refresh_failed',
  /** Sign-out cleared the local session but the server could not be told; the sign-in may still be live there. */
  revocationFailed: 'auth_revocation_failed',
  /** An API key that cannot go into an `Authorization` header (empty, spaces, control characters). */
  apiKeyInvalid: 'auth_api_key_invalid',
  /** A browser store would keep an API key and the caller did not opt in. */
  apiKeyNotPersisted: 'auth_api_key_not_persisted',
  /** `fx auth login`: no redirect reached the loopback listener in time. */
  loginTimeout: 'auth_login_timeout',
  /** The credentials file is not a JSON object; it is left as it is. */
  credentialsFileCorrupt: 'auth_credentials_file_corrupt',
  /** The credentials file cannot be read or written (permissions, a folder in its place, …). */
  credentialsFileUnavailable: 'auth_credentials_file_unavailable',
} as const;
export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

export type AuthError = FxError<AuthErrorCode>;

export const authError = (
  code: AuthErrorCode,
  message: string,
  options: { cause?: unknown; status?: number } = {},
): AuthError => new FxError(code, message, options);
