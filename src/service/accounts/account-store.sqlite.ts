import { IdPrefix } from '../../wire/constants.js';
import type { Sqlite } from '../db/sqlite.js';
import { newId } from '../ids.js';
import { newWebhookSecret, toAccount, type AccountRow, type AccountStore } from './account-store.js';

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly db: Sqlite) {}

  async get(id: string) {
    return toAccount(this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined);
  }

  async findByName(name: string) {
    return toAccount(this.db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as AccountRow | undefined);
  }

  async ensure(name: string, now: number) {
    this.db
      .prepare(
        'INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING',
      )
      .run(newId(IdPrefix.account), name, newWebhookSecret(), now);
    return (await this.findByName(name))!;
  }

  async rotateWebhookSecret(id: string) {
    this.db.prepare('UPDATE accounts SET webhook_secret = ? WHERE id = ?').run(newWebhookSecret(), id);
    return this.get(id);
  }
}
