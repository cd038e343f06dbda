import { PostgresAccountStore } from '../accounts/account-store.postgres.js';
import { PostgresAssetRecords } from '../assets/asset-records.postgres.js';
import { PostgresApiKeyStore } from '../auth/api-keys.postgres.js';
import { PostgresIdempotencyStore } from '../idempotency/idempotency-store.postgres.js';
import { PostgresOAuthRecords } from '../oauth/adapter.postgres.js';
import { PostgresPasswordRecords } from '../oauth/password-records.postgres.js';
import { PostgresChunkStore } from '../renders/chunk-store.postgres.js';
import { PostgresRenderStore } from '../renders/render-store.postgres.js';
import { PostgresWebhookOutbox } from '../webhooks/outbox.postgres.js';
import { openPostgres, type PostgresOptions } from './postgres.js';
import { PostgresSettingStore } from './settings.postgres.js';
import type { Stores } from './stores.js';

/** The stores over the PostgreSQL database at `url` (migrated when needed; the database itself must exist). */
export async function openPostgresStores(
  url: string,
  now: () => number = Date.now,
  options: PostgresOptions = {},
): Promise<Stores> {
  const pool = await openPostgres(url, options);
  return {
    accounts: new PostgresAccountStore(pool),
    apiKeys: new PostgresApiKeyStore(pool, now),
    assets: new PostgresAssetRecords(pool),
    renders: new PostgresRenderStore(pool),
    chunks: new PostgresChunkStore(pool),
    idempotency: new PostgresIdempotencyStore(pool),
    outbox: new PostgresWebhookOutbox(pool),
    settings: new PostgresSettingStore(pool),
    oauth: new PostgresOAuthRecords(pool, now),
    passwords: new PostgresPasswordRecords(pool),
    postgres: pool,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}
