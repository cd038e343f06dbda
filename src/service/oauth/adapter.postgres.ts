import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { PgPool } from '../db/postgres.js';
import { RecordCodec, type OAuthRecords, type RecordRow } from './adapter.js';

const live = (n: number) => `(expires_at IS NULL OR expires_at > $${n})`;

export class PostgresOAuthRecords implements OAuthRecords {
  constructor(
    private readonly pool: PgPool,
    private readonly now: () => number = Date.now,
  ) {}

  adapter(model: string): Adapter {
    return new PostgresOAuthAdapter(this.pool, model, this.now);
  }

  async grantIsLive(grantId: string, now: number) {
    const { rowCount } = await this.pool.query(
      `SELECT 1 FROM oauth_records WHERE model = 'Grant' AND id = $1 AND ${live(2)}`,
      [grantId, now],
    );
    return rowCount === 1;
  }

  async purgeExpired(now: number) {
    const { rowCount } = await this.pool.query(
      'DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= $1',
      [now],
    );
    return rowCount ?? 0;
  }
}

class PostgresOAuthAdapter implements Adapter {
  private readonly codec: RecordCodec;

  constructor(
    private readonly pool: PgPool,
    private readonly model: string,
    private readonly now: () => number,
  ) {
    this.codec = new RecordCodec(model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
         user_code = excluded.user_code, expires_at = excluded.expires_at`,
      [this.model, ...this.codec.row(id, payload, expiresIn, this.now())],
    );
  }

  async find(id: string) {
    return this.codec.read(await this.select('id', this.codec.key(id)), id);
  }

  async findByUid(uid: string) {
    return this.codec.read(await this.select('uid', uid));
  }

  async findByUserCode(userCode: string) {
    return this.codec.read(await this.select('user_code', userCode));
  }

  /** Marks a code or refresh token used; conditional, so of two concurrent uses only one gets through. */
  async consume(id: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      'UPDATE oauth_records SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
      [this.model, this.codec.key(id), Math.floor(this.now() / 1000)],
    );
    if (rowCount === 0) throw await this.codec.alreadyUsed();
  }

  async destroy(id: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_records WHERE model = $1 AND id = $2', [this.model, this.codec.key(id)]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_records WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
  }

  private async select(column: 'id' | 'uid' | 'user_code', value: string): Promise<RecordRow | undefined> {
    const { rows } = await this.pool.query<RecordRow>(
      `SELECT id, payload, consumed_at FROM oauth_records WHERE model = $1 AND ${column} = $2 AND ${live(3)}`,
      [this.model, value, this.now()],
    );
    return rows[0];
  }
}
