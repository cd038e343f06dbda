import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../wire/constants.js';

export interface Account {
  readonly id: string;
  readonly name: string;
  /** `whsec_` + base64 of 24 random bytes: the key of the account's webhook signatures. */
  readonly webhookSecret: string;
  readonly createdAt: number;
}

/** Accounts; implementations: `account-store.sqlite.ts`, `account-store.postgres.ts`. */
export interface AccountStore {
  get(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
  /** The account with this name, created when missing. */
  ensure(name: string, now: number): Promise<Account>;
  rotateWebhookSecret(id: string): Promise<Account | undefined>;
}

export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export interface AccountRow {
  id: string;
  name: string;
  webhook_secret: string;
  created_at: number;
}

export const toAccount = (row: AccountRow | undefined): Account | undefined =>
  row && { id: row.id, name: row.name, webhookSecret: row.webhook_secret, createdAt: row.created_at };
