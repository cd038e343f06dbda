import type { KeyObject } from 'node:crypto';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { invalidTokenError } from '../auth/bearer.js';
import { ACCESS_TOKEN_TYP, GRANT_ID_CLAIM, OAuthScope } from './constants.js';
import { jwsKeyId, verifyCompactJws } from './jws.js';
import type { OAuthRecords } from './adapter.js';

/** Reads of the keys on an unknown `kid` are at least this far apart. */
const REFRESH_EVERY_MS = 5_000;

export interface AccessTokenVerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly publicKeys: ReadonlyMap<string, KeyObject>;
  /** Every key there is now: asked when a token names a key not known here (another process rotated). */
  readonly refreshKeys?: () => Promise<ReadonlyMap<string, KeyObject>>;
  /** The authorization server's records: a token of a revoked or expired grant is refused at once. */
  readonly records: Pick<OAuthRecords, 'grantIsLive'>;
  readonly now?: () => number;
}

/**
 * The `oauth` authenticator of `/v3`: verifies the authorization server's JWT access tokens in process (ES256
 * signature with the server's own keys, `typ` at+jwt, issuer, audience, expiry, the `renders` scope) and checks
 * that their grant still exists. A token not signed by our keys is not ours (undefined, the next authenticator
 * may know it); one that is ours but unusable is refused with the reason in `WWW-Authenticate`.
 */
export class AccessTokenVerifier implements Authenticator {
  private readonly now: () => number;
  private publicKeys: ReadonlyMap<string, KeyObject>;
  private refreshedAt = -Infinity;

  constructor(private readonly options: AccessTokenVerifierOptions) {
    this.now = options.now ?? Date.now;
    this.publicKeys = options.publicKeys;
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const verified = verifyCompactJws(token, await this.keysFor(token));
    if (!verified) return undefined;
    const { header, payload } = verified;
    const now = this.now();
    if (typeof header.typ !== 'string' || !/^(application\/)?at\+jwt$/i.test(header.typ))
      throw invalidTokenError(`the token is not an access token (typ ${ACCESS_TOKEN_TYP})`);
    if (payload.iss !== this.options.issuer) throw invalidTokenError('the access token is from another issuer');
    if (!hasAudience(payload.aud, this.options.audience))
      throw invalidTokenError('the access token is for another audience');
    if (typeof payload.exp !== 'number') throw invalidTokenError('the access token has no expiry');
    if (now >= payload.exp * 1000)
      throw invalidTokenError(`the access token expired at ${new Date(payload.exp * 1000).toISOString()}; refresh it`);
    if (typeof payload.nbf === 'number' && now < payload.nbf * 1000)
      throw invalidTokenError('the access token is not valid yet');
    // Sender-constrained tokens (DPoP, mTLS) need a proof this service does not check: never take them as bearer.
    if (payload.cnf !== undefined)
      throw invalidTokenError('the access token is sender-constrained, which this service does not accept');
    if (typeof payload.scope !== 'string' || !payload.scope.split(' ').includes(OAuthScope.renders))
      throw invalidTokenError(`the access token lacks the scope ${OAuthScope.renders}`);
    const accountId = payload.sub;
    const grantId = payload[GRANT_ID_CLAIM];
    if (typeof accountId !== 'string' || typeof grantId !== 'string')
      throw invalidTokenError('the access token names no account or grant');
    if (!(await this.options.records.grantIsLive(grantId, now)))
      throw invalidTokenError('the sign-in behind the access token was revoked or has expired; sign in again');
    return { accountId, credentialId: grantId, kind: 'oauth' };
  }

  /**
   * The keys to verify `token` with: on a `kid` not known here, the database's keys are read again, at most once in
   * {@link REFRESH_EVERY_MS} (tokens with made-up key ids must not each turn into a database read).
   */
  private async keysFor(token: string): Promise<ReadonlyMap<string, KeyObject>> {
    const kid = jwsKeyId(token);
    const now = this.now();
    if (kid === undefined || this.publicKeys.has(kid) || !this.options.refreshKeys) return this.publicKeys;
    if (now - this.refreshedAt < REFRESH_EVERY_MS) return this.publicKeys;
    this.refreshedAt = now;
    this.publicKeys = await this.options.refreshKeys();
    return this.publicKeys;
  }
}

function hasAudience(aud: unknown, audience: string): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}
