import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Sqlite } from '../db/sqlite.js';
import { sha256Hex } from '../ids.js';

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

interface RecordRow {
  payload: string;
  consumed_at: number | null;
}

/**
 * oidc-provider's storage over the service's SQLite database: grants, refresh tokens, sessions and interactions
 * survive a restart and are shared with the admin command. One instance per model (oidc-provider's contract).
 */
export class SqliteOAuthAdapter implements Adapter {
  private readonly secret: boolean;

  constructor(
    private readonly db: Sqlite,
    private readonly model: string,
    private readonly now: () => number = Date.now,
  ) {
    this.secret = SECRET_MODELS.has(model);
  }

  private key(id: string): string {
    return this.secret ? sha256Hex(id) : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const stored = this.secret ? { ...payload, jti: undefined } : payload;
    const expiresAt = typeof expiresIn === 'number' ? this.now() + expiresIn * 1000 : null;
    this.db
      .prepare(
        `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
           user_code = excluded.user_code, expires_at = excluded.expires_at`,
      )
      .run(
        this.model,
        this.key(id),
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresAt,
      );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.read(
      this.db
        .prepare(`SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND id = ? AND ${LIVE}`)
        .get(this.model, this.key(id), this.now()),
      id,
    );
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = this.db
      .prepare(`SELECT id, payload, consumed_at FROM oauth_records WHERE model = ? AND uid = ? AND ${LIVE}`)
      .get(this.model, uid, this.now()) as (RecordRow & { id: string }) | undefined;
    return this.read(row, this.secret ? undefined : row?.id);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = this.db
      .prepare(`SELECT id, payload, consumed_at FROM oauth_records WHERE model = ? AND user_code = ? AND ${LIVE}`)
      .get(this.model, userCode, this.now()) as (RecordRow & { id: string }) | undefined;
    return this.read(row, this.secret ? undefined : row?.id);
  }

  /**
   * Marks a code or refresh token used. Conditional, so of two concurrent requests with the same code or refresh
   * token only one gets through (oidc-provider reads, then consumes: the read alone would let both pass).
   */
  async consume(id: string): Promise<void> {
    const changed = this.db
      .prepare('UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL')
      .run(Math.floor(this.now() / 1000), this.model, this.key(id)).changes;
    if (changed === 0)
      throw new errors.InvalidGrant(
        `${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`,
      );
  }

  async destroy(id: string): Promise<void> {
    this.db.prepare('DELETE FROM oauth_records WHERE model = ? AND id = ?').run(this.model, this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.db.prepare('DELETE FROM oauth_records WHERE model = ? AND grant_id = ?').run(this.model, grantId);
  }

  private read(row: unknown, id: string | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    const { payload, consumed_at: consumedAt } = row as RecordRow;
    const parsed = JSON.parse(payload) as AdapterPayload;
    if (id !== undefined) parsed.jti = id;
    if (consumedAt !== null) parsed.consumed = consumedAt;
    return parsed;
  }
}

const LIVE = '(expires_at IS NULL OR expires_at > ?)';

/** Deletes expired records (they are already invisible to `find`); returns how many. */
export function purgeExpiredOAuthRecords(db: Sqlite, now: number): number {
  return db.prepare('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now).changes;
}

/** Whether a grant is still there: gone once revoked (refresh token or code reuse, revocation) or expired. */
export function grantIsLive(db: Sqlite, grantId: string, now: number): boolean {
  return (
    db.prepare(`SELECT 1 FROM oauth_records WHERE model = 'Grant' AND id = ? AND ${LIVE}`).get(grantId, now) !==
    undefined
  );
}
