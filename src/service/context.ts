import type { AccountStore } from './accounts/account-store.js';
import type { AssetRecords } from './assets/asset-records.js';
import type { ApiKeyStore } from './auth/api-keys.js';
import type { Authenticator } from './auth/authenticator.js';
import type { ResolvedConfig } from './config.js';
import type { IdempotencyStore } from './idempotency/idempotency-store.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { ServiceEvents } from './observe/events.js';
import type { ChunkStore } from './renders/chunk-store.js';
import type { RenderStore } from './renders/render-store.js';
import type { UrlSigner } from './signing/url-signer.js';
import type { BlobStorage } from './storage/blob-storage.js';
import type { WebhookOutbox } from './webhooks/outbox.js';

/** Everything the routes, the job runner and the webhook dispatcher share; built once by `createService`. */
export interface ServiceContext {
  readonly config: ResolvedConfig;
  readonly accounts: AccountStore;
  readonly apiKeys: ApiKeyStore;
  readonly assets: AssetRecords;
  readonly renders: RenderStore;
  readonly chunks: ChunkStore;
  readonly idempotency: IdempotencyStore;
  readonly outbox: WebhookOutbox;
  readonly storage: BlobStorage;
  readonly signer: UrlSigner;
  readonly queue: JobQueue;
  readonly authenticator: Authenticator;
  /** The observation point: what the service decides is said here; metrics and logs subscribe (observe/). */
  readonly events: ServiceEvents;
  /** Origin of signed links and webhook URLs: `publicBaseUrl`, else the listening address, else `fallback`. */
  baseUrl(fallback?: string): string;
  /** Asks the webhook dispatcher to look for due deliveries now. */
  wakeWebhooks(): void;
  /** One round trip to the database (readiness). */
  pingDatabase(): Promise<void>;
}
