import type { Sqlite } from '../db/sqlite.js';
import type { PasswordRecords } from './password-records.js';

export class SqlitePasswordRecords implements PasswordRecords {
  constructor(private readonly db: Sqlite) {}

  async hashOf(accountId: string) {
    const row = this.db.prepare('SELECT hash FROM account_passwords WHERE account_id = ?').get(accountId) as
      { hash: string } | undefined;
    return row?.hash;
  }

  async save(accountId: string, hash: string, now: number) {
    this.db
      .prepare(
        'INSERT INTO account_passwords (account_id, hash, updated_at) VALUES (?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at',
      )
      .run(accountId, hash, now);
  }
}
