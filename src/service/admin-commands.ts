import { join } from 'node:path';
import { SqliteAccountStore } from './accounts/account-store.js';
import { ApiKeyStore } from './auth/api-keys.js';
import { openDatabase, type Sqlite } from './db/sqlite.js';
import { DATABASE_FILE } from './service.js';

export interface CreatedKey {
  readonly accountId: string;
  readonly keyId: string;
  /** Shown once; only its hash is stored. */
  readonly key: string;
  readonly webhookSecret: string;
}

/** Creates an API key for the account `name` (created when missing). */
export async function createApiKey(db: Sqlite, name: string, now = Date.now()): Promise<CreatedKey> {
  const account = await new SqliteAccountStore(db).ensure(name, now);
  const { id, key } = new ApiKeyStore(db, () => now).create(account.id);
  return { accountId: account.id, keyId: id, key, webhookSecret: account.webhookSecret };
}

/** Opens the database of a service data folder, for admin work while the service may be running (WAL). */
export function openServiceDatabase(dataDir: string): Sqlite {
  return openDatabase(join(dataDir, DATABASE_FILE));
}
