import { join } from 'node:path';
import { SqliteAccountStore } from '../accounts/account-store.sqlite.js';
import { SqliteAssetRecords } from '../assets/asset-records.sqlite.js';
import { SqliteApiKeyStore } from '../auth/api-keys.sqlite.js';
import { SqliteIdempotencyStore } from '../idempotency/idempotency-store.sqlite.js';
import { SqliteOAuthRecords } from '../oauth/adapter.sqlite.js';
import { SqlitePasswordRecords } from '../oauth/password-records.sqlite.js';
import { SqliteChunkStore } from '../renders/chunk-store.sqlite.js';
import { SqliteRenderStore } from '../renders/render-store.sqlite.js';
import { SqliteWebhookOutbox } from '../webhooks/outbox.sqlite.js';
import { SqliteSettingStore } from './settings.sqlite.js';
import { openDatabase } from './sqlite.js';
import type { Stores } from './stores.js';

/** The embedded database: one file in the data folder. */
export const DATABASE_FILE = 'service.db';

/** The stores over `dataDir/service.db` (created and migrated when needed). */
export function openSqliteStores(
  dataDir: string,
  now: () => number = Date.now,
  options: { log?: ((message: string, details?: Record<string, unknown>) => void) | undefined } = {},
): Stores {
  const db = openDatabase(join(dataDir, DATABASE_FILE), options.log ? { log: options.log } : {});
  return {
    accounts: new SqliteAccountStore(db),
    apiKeys: new SqliteApiKeyStore(db, now),
    assets: new SqliteAssetRecords(db),
    renders: new SqliteRenderStore(db),
    chunks: new SqliteChunkStore(db),
    idempotency: new SqliteIdempotencyStore(db),
    outbox: new SqliteWebhookOutbox(db),
    settings: new SqliteSettingStore(db),
    oauth: new SqliteOAuthRecords(db, now),
    passwords: new SqlitePasswordRecords(db),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    close: async () => {
      db.close();
    },
  };
}
