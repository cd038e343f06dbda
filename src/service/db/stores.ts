import type { AccountStore } from '../accounts/account-store.js';
import type { AssetRecords } from '../assets/asset-records.js';
import type { ApiKeyStore } from '../auth/api-keys.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { OAuthRecords } from '../oauth/adapter.js';
import type { PasswordRecords } from '../oauth/password-records.js';
import type { ChunkStore } from '../renders/chunk-store.js';
import type { RenderStore } from '../renders/render-store.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { PgPool } from './postgres.js';
import type { SettingStore } from './settings.js';

/** Every record the service and its authorization server keep, over one database. */
export interface Stores {
  readonly accounts: AccountStore;
  readonly apiKeys: ApiKeyStore;
  readonly assets: AssetRecords;
  readonly renders: RenderStore;
  readonly chunks: ChunkStore;
  readonly idempotency: IdempotencyStore;
  readonly outbox: WebhookOutbox;
  readonly settings: SettingStore;
  readonly oauth: OAuthRecords;
  readonly passwords: PasswordRecords;
  /** The connection pool on PostgreSQL (the job queue shares it); undefined on SQLite. */
  readonly postgres?: PgPool;
  /** One round trip to the database (readiness); rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Closes this handle's connection(s); other handles on the same database go on. */
  close(): Promise<void>;
}
