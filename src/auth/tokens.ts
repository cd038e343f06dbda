import * as oauth from 'oauth4webapi';

/** A signed-in session as stored. Unknown fields written by a newer version are kept on refresh. */
export interface TokenRecord {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** When the access token expires, in ms since the epoch (from `expires_in`). */
  readonly expiresAt: number;
  readonly scope?: string;
  /** The account (`sub` of the ID token), when the server sent one. */
  readonly subject?: string;
  readonly [unknown: string]: unknown;
}

/** Refresh this long before the access token expires: requests in flight and clocks a little apart. */
export const EXPIRY_SKEW_MS = 30_000;
/** When the server gives no `expires_in`: treat the token as good for this long, then refresh. */
const UNKNOWN_LIFETIME_MS = 5 * 60_000;

export const bearer = (record: TokenRecord) => `Bearer ${record.accessToken}`;

export const isStale = (record: TokenRecord, now: number) => now >= record.expiresAt - EXPIRY_SKEW_MS;

/** The record for a token response; a refresh answer without a new refresh token keeps the old one. */
export function tokenRecord(response: oauth.TokenEndpointResponse, now: number, previous?: TokenRecord): TokenRecord {
  const subject = oauth.getValidatedIdTokenClaims(response)?.sub ?? previous?.subject;
  const refreshToken = response.refresh_token ?? previous?.refreshToken;
  return {
    ...previous,
    accessToken: response.access_token,
    expiresAt: now + (typeof response.expires_in === 'number' ? response.expires_in * 1000 : UNKNOWN_LIFETIME_MS),
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(response.scope === undefined ? {} : { scope: response.scope }),
    ...(subject === undefined ? {} : { subject }),
  };
}

/** Whether a stored value is a usable record (a store written by hand or by another version may hold anything). */
export function isTokenRecord(value: unknown): value is TokenRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.accessToken === 'string' &&
    typeof record.expiresAt === 'number' &&
    (record.refreshToken === undefined || typeof record.refreshToken === 'string')
  );
}
