import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Sqlite } from '../db/sqlite.js';
import { RecordCodec, type OAuthRecords, type RecordRow } from './adapter.js';

const LIVE = '(expires_at IS NULL OR expires_at > ?)';

export class SqliteOAuthRecords implements OAuthRecords {
  constructor(
    private readonly db: Sqlite,
    private readonly now: () => number = Date.now,
  ) {}

  adapter(model: string): Adapter {
    return new SqliteOAuthAdapter(this.db, model, this.now);
  }

  async grantIsLive(grantId: string, now: number) {
    return (
      this.db.prepare(`SELECT 1 FROM oauth_records WHERE model = 'Grant' AND id = ? AND ${LIVE}`).get(grantId, now) !==
      undefined
    );
  }

  async purgeExpired(now: number) {
    return this.db.prepare('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now)
      .changes;
  }
}

class SqliteOAuthAdapter implements Adapter {
  private readonly codec: RecordCodec;

  constructor(
    private readonly db: Sqlite,
    private readonly model: string,
    private readonly now: () => number,
  ) {
    this.codec = new RecordCodec(model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
           user_code = excluded.user_code, expires_at = excluded.expires_at`,
      )
      .run(this.model, ...this.codec.row(id, payload, expiresIn, this.now()));
  }

  async find(id: string) {
    return this.codec.read(this.select('id = ?', this.codec.key(id)), id);
  }

  async findByUid(uid: string) {
    return this.codec.read(this.select('uid = ?', uid));
  }

  async findByUserCode(userCode: string) {
    return this.codec.read(this.select('user_code = ?', userCode));
  }

  /**
   * Marks a code or refresh token used. Conditional, so of two concurrent requests with the same code or refresh
   * token only one gets through (oidc-provider reads, then consumes: the read alone would let both pass).
   */
  async consume(id: string): Promise<void> {
    const changed = this.db
      .prepare('UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL')
      .run(Math.floor(this.now() / 1000), this.model, this.codec.key(id)).changes;
    if (changed === 0) throw await this.codec.alreadyUsed();
  }

  async destroy(id: string): Promise<void> {
    this.db.prepare('DELETE FROM oauth_records WHERE model = ? AND id = ?').run(this.model, this.codec.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.db.prepare('DELETE FROM oauth_records WHERE model = ? AND grant_id = ?').run(this.model, grantId);
  }

  private select(where: string, value: string): RecordRow | undefined {
    return this.db
      .prepare(`SELECT id, payload, consumed_at FROM oauth_records WHERE model = ? AND ${where} AND ${LIVE}`)
      .get(this.model, value, this.now()) as RecordRow | undefined;
  }
}
