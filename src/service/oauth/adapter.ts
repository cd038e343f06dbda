import type { Adapter, AdapterPayload } from 'oidc-provider';
import { sha256Hex } from '../ids.js';

/**
 * oidc-provider's storage, next to the service's own tables: grants, refresh tokens, sessions and interactions
 * survive a restart and are shared with the admin command. Implementations: `adapter.sqlite.ts`,
 * `adapter.postgres.ts`.
 */
export interface OAuthRecords {
  /** One adapter per model (oidc-provider's contract). */
  adapter(model: string): Adapter;
  /** Whether a grant is still there: gone once revoked (refresh token or code reuse, revocation) or expired. */
  grantIsLive(grantId: string, now: number): Promise<boolean>;
  /** Deletes expired records (they are already invisible to `find`); returns how many. */
  purgeExpired(now: number): Promise<number>;
}

/**
 * Models whose id is a bearer secret: stored under the SHA-256 of the id, with the id itself left out of the
 * payload, so a leaked database leaks no usable code or refresh token (JWT access tokens are never stored).
 */
const SECRET_MODELS = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export interface RecordRow {
  id: string;
  payload: string;
  consumed_at: number | null;
}

/** What every implementation stores and reads the same way: the key, the payload, the columns beside it. */
export class RecordCodec {
  private readonly secret: boolean;

  constructor(readonly model: string) {
    this.secret = SECRET_MODELS.has(model);
  }

  key(id: string): string {
    return this.secret ? sha256Hex(id) : id;
  }

  /** The row of an upsert: key, payload JSON, grant id, uid, user code, expiry (epoch ms or null). */
  row(id: string, payload: AdapterPayload, expiresIn: number | undefined, now: number) {
    const stored = this.secret ? { ...payload, jti: undefined } : payload;
    return [
      this.key(id),
      JSON.stringify(stored),
      payload.grantId ?? null,
      payload.uid ?? null,
      payload.userCode ?? null,
      typeof expiresIn === 'number' ? now + expiresIn * 1000 : null,
    ] as const;
  }

  /** The payload of a row found by `id` (undefined: found by uid or user code, whose id is the row's own). */
  read(row: RecordRow | undefined, id?: string): AdapterPayload | undefined {
    if (!row) return undefined;
    const parsed = JSON.parse(row.payload) as AdapterPayload;
    const jti = id ?? (this.secret ? undefined : row.id);
    if (jti !== undefined) parsed.jti = jti;
    if (row.consumed_at !== null) parsed.consumed = row.consumed_at;
    return parsed;
  }

  /**
   * Thrown by `consume` when the code or token was consumed already. oidc-provider is loaded here, not at the top:
   * the admin command uses these stores without the provider (which warns on Node 20 when loaded).
   */
  async alreadyUsed(): Promise<Error> {
    const { errors } = await import('oidc-provider');
    return new errors.InvalidGrant(
      `${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`,
    );
  }
}
