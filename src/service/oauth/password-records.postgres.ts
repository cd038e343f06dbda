import type { PgPool } from '../db/postgres.js';
import type { PasswordRecords } from './password-records.js';

export class PostgresPasswordRecords implements PasswordRecords {
  constructor(private readonly pool: PgPool) {}

  async hashOf(accountId: string) {
    const { rows } = await this.pool.query<{ hash: string }>(
      'SELECT hash FROM account_passwords WHERE account_id = $1',
      [accountId],
    );
    return rows[0]?.hash;
  }

  async save(accountId: string, hash: string, now: number) {
    await this.pool.query(
      'INSERT INTO account_passwords (account_id, hash, updated_at) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at',
      [accountId, hash, now],
    );
  }
}
