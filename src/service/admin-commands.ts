import type { Stores } from './db/stores.js';

export interface CreatedKey {
  readonly accountId: string;
  readonly keyId: string;
  /** Shown once; only its hash is stored. */
  readonly key: string;
  readonly webhookSecret: string;
}

/** Creates an API key for the account `name` (created when missing). */
export async function createApiKey(stores: Stores, name: string, now = Date.now()): Promise<CreatedKey> {
  const account = await stores.accounts.ensure(name, now);
  const { id, key } = await stores.apiKeys.create(account.id);
  return { accountId: account.id, keyId: id, key, webhookSecret: account.webhookSecret };
}
