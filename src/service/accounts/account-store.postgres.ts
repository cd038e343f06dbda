import { IdPrefix } from '../../wire/constants.js';
import type { PgPool } from '../db/postgres.js';
import { newId } from '../ids.js';
import { newWebhookSecret, toAccount, type AccountRow, type AccountStore } from './account-store.js';

export class PostgresAccountStore implements AccountStore {
  constructor(private readonly pool: PgPool) {}

  private async one(sql: string, params: unknown[]) {
    return toAccount((await this.pool.query<AccountRow>(sql, params)).rows[0]);
  }

  async get(id: string) {
    return this.one('SELECT * FROM accounts WHERE id = $1', [id]);
  }

  async findByName(name: string) {
    return this.one('SELECT * FROM accounts WHERE name = $1', [name]);
  }

  async ensure(name: string, now: number) {
    await this.pool.query(
      'INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING',
      [newId(IdPrefix.account), name, newWebhookSecret(), now],
    );
    return (await this.findByName(name))!;
  }

  async rotateWebhookSecret(id: string) {
    return this.one('UPDATE accounts SET webhook_secret = $2 WHERE id = $1 RETURNING *', [id, newWebhookSecret()]);
  }
}
