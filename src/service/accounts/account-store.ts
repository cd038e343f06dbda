import { randomBytes } from 'node:crypto';
import { IdPrefix, WEBHOOK_SECRET_PREFIX } from '../../wire/constants.js';
import type { Sqlite } from '../db/sqlite.js';
import { newId } from '../ids.js';

export interface Account {
  readonly id: string;
  readonly name: string;
  /** `whsec_` + base64 of 24 random bytes: the key of the account's webhook signatures. */
  readonly webhookSecret: string;
  readonly createdAt: number;
}

export interface AccountStore {
  get(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
  /** The account with this name, created when missing. */
  ensure(name: string, now: number): Promise<Account>;
  rotateWebhookSecret(id: string): Promise<Account | undefined>;
}

export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

interface AccountRow {
  id: string;
  name: string;
  webhook_secret: string;
  created_at: number;
}

const toAccount = (row: AccountRow | undefined): Account | undefined =>
  row && { id: row.id, name: row.name, webhookSecret: row.webhook_secret, createdAt: row.created_at };

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
