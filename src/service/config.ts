import { DEFAULT_MAX_DURATION_SECONDS, DEFAULT_MAX_FRAMES } from '../render/options.js';
import { hostname } from 'node:os';
import type { JoinChunksOptions } from '../render/chunks/join.js';
import type { ChunkOptions, ChunkResult } from '../render/chunks/render.js';
import type { RenderFunction, RenderOptions, RenderResult } from '../render/types.js';
import { ZIP_LIMITS } from '../wire/zip-limits.js';
import { DEFAULT_VARIABLES_LIMITS } from '../wire/render-request.js';
import type { Authenticator } from './auth/authenticator.js';
import type { BlobStorage } from './storage/blob-storage.js';
import type { Hono } from 'hono';
import type { ServiceEnv } from './http/env.js';
import { resolveChunkSettings, type ChunkSettings } from './jobs/chunk-settings.js';
import type { ServiceLogger } from './observe/logger.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Size and count limits; every one is documented in openapi.yaml. */
export interface Limits {
  /** Zip upload body. Above → 413 `upload_too_large`. The zip defaults are `ZIP_LIMITS` (src/wire), shared with the client. */
  readonly uploadBytes: number;
  /** JSON request body. Above → 413 `body_too_large`. */
  readonly jsonBodyBytes: number;
  /** `variables` serialised as JSON. */
  readonly variablesBytes: number;
  /**
   * Nesting of `variables`, the object itself being level 1. Above → 400 `variables_too_deep`, checked before
   * anything walks the value recursively (`JSON.stringify` overflowed the stack at about 4 100 levels).
   */
  readonly variablesDepth: number;
  readonly zipEntries: number;
  /** Sum of the declared uncompressed sizes. */
  readonly zipUncompressedBytes: number;
  /** Largest allowed uncompressed/compressed ratio of an entry, and of all entries together... */
  readonly zipRatio: number;
  /** ...checked only for an entry, or a whole archive, unpacking to at least this much (small files of zeros compress absurdly well). */
  readonly zipRatioMinBytes: number;
  /** Page fetched for a `url` render. */
  readonly urlPageBytes: number;
  readonly urlFetchTimeoutMs: number;
  /** Longest root `data-duration` of a composition. Above → 422 `composition_duration_too_long`; also given to the renderer. */
  readonly maxDurationSeconds: number;
  /** Most frames (duration × fps) of one render. Above → 422 `composition_duration_too_long`; also given to the renderer. */
  readonly maxFrames: number;
}

export const DEFAULT_LIMITS: Limits = {
  ...ZIP_LIMITS,
  jsonBodyBytes: 1 * MiB,
  // The client checks against these before it sends anything (src/wire); the depth is the preview's.
  ...DEFAULT_VARIABLES_LIMITS,
  urlPageBytes: 5 * MiB,
  urlFetchTimeoutMs: 10_000,
  // The renderer's defaults: 600 s, 36 000 frames (10 minutes at 60 fps).
  maxDurationSeconds: DEFAULT_MAX_DURATION_SECONDS,
  maxFrames: DEFAULT_MAX_FRAMES,
};

export interface WebhookSettings {
  readonly timeoutMs: number;
  /** First retry delay; each next one is 4× longer, capped at `maxDelayMs`. */
  readonly retryBaseMs: number;
  readonly maxDelayMs: number;
  readonly maxAttempts: number;
  /** How often the dispatcher looks for due deliveries. */
  readonly pollMs: number;
}

export const DEFAULT_WEBHOOKS: WebhookSettings = {
  timeoutMs: 10_000,
  retryBaseMs: 5_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 8,
  pollMs: 1_000,
};

/**
 * What a service process does: `embedded` serves HTTP and renders (one process, the default); `api` serves HTTP
 * only and `worker` renders and sends webhooks only, any number of each on one PostgreSQL database.
 */
export const ServiceRole = { embedded: 'embedded', api: 'api', worker: 'worker' } as const;
export type ServiceRole = (typeof ServiceRole)[keyof typeof ServiceRole];

/** The pg-boss job queue (with `databaseUrl`); see `job-queue.pgboss.ts`. */
export interface QueueSettings {
  /** A running job's lease: a dead worker's render is taken over about this long after it died. */
  readonly leaseSeconds: number;
  /** First retry delay after a handler error or an expired lease (doubled on each retry). */
  readonly retryDelaySeconds: number;
  readonly pollingIntervalSeconds: number;
  /** How often expired leases are looked for. */
  readonly maintenanceIntervalSeconds: number;
  /** How often a worker gives queued renders whose job failed for good (retries used up) their job back. */
  readonly sweepIntervalMs: number;
}

export const DEFAULT_QUEUE: QueueSettings = {
  leaseSeconds: 60,
  retryDelaySeconds: 5,
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 20,
  sweepIntervalMs: 60_000,
};

/** `GET /metrics` (observe/metrics.ts). */
export interface MetricsSettings {
  /** Serve it at all; off, `/metrics` is a 404. Default on. */
  readonly enabled: boolean;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (401 otherwise). */
  readonly token: string | undefined;
  /** Served only by `listenMetrics` (a port of its own), not on the API's port. Default false. */
  readonly ownPort: boolean;
  /** prom-client's series of the Node process too (`fx_process_*`, `fx_nodejs_*`). Default false; `main.ts` sets it. */
  readonly processMetrics: boolean;
}

export const DEFAULT_METRICS: MetricsSettings = {
  enabled: true,
  token: undefined,
  ownPort: false,
  processMetrics: false,
};

/** When stored files go (`jobs/retention-sweep.ts`); the records always stay. */
export interface RetentionSettings {
  /**
   * Days a finished render's files (video, thumbnail, a `url` render's page) are kept after it finished, and an
   * asset's files after its last use (upload or submit). Undefined (the default): kept for ever.
   */
  readonly days: number | undefined;
  /**
   * Hours after a soft delete by which what is left of the render's files is removed (`DELETE` removes its outputs
   * at once; this catches a removal that failed or a render that wrote its files after its delete).
   */
  readonly deletedHours: number;
  /** How often each process sweeps (its first sweep comes after at most a minute). */
  readonly sweepIntervalMs: number;
}

export const DEFAULT_RETENTION: RetentionSettings = {
  days: undefined,
  deletedHours: 24,
  sweepIntervalMs: 3_600_000,
};

/** The renderer's chunk functions (`renderChunk`, `joinChunks` of src/render); injected like `render`. */
export interface ChunkRenderer {
  readonly renderChunk: (options: ChunkOptions) => Promise<ChunkResult>;
  readonly joinChunks: (options: JoinChunksOptions) => Promise<RenderResult>;
}

/** The real chunk functions, loaded when a chunked render first needs them. */
const REAL_CHUNK_RENDERER: ChunkRenderer = {
  renderChunk: async (options) => (await import('../render/chunks/render.js')).renderChunk(options),
  joinChunks: async (options) => (await import('../render/chunks/join.js')).joinChunks(options),
};

export interface ServiceConfig {
  /** Default `embedded`; `api` and `worker` need `databaseUrl`. */
  readonly role?: ServiceRole;
  /** Holds `service.db` (without `databaseUrl`) and, with the default storage, `blobs/` and `work/`. */
  readonly dataDir: string;
  /**
   * `postgres://user:password@host:port/database`: keep every record in that PostgreSQL database (migrated at start,
   * shareable by several service processes) instead of `dataDir/service.db`. Default: SQLite.
   */
  readonly databaseUrl?: string;
  /** The renderer; injected so tests and deployments choose it. */
  readonly render: RenderFunction;
  /** Renderer settings applied to every render (capture workers, capture mode, step timeout). */
  readonly renderOptions?: Pick<RenderOptions, 'concurrency' | 'capture' | 'timeoutMs'>;
  /** Renders run at the same time. Default 1. */
  readonly concurrency?: number;
  /**
   * Splitting long renders into chunks that any worker renders (`FX_SERVICE_CHUNK_*`, see docs/service.md).
   * Default: 1 worker, every render one job. Checked at start (`chunk_settings_invalid`).
   */
  readonly chunks?: Partial<ChunkSettings>;
  /** The chunk renderer; default the real one from src/render. */
  readonly chunkRenderer?: ChunkRenderer;
  /** Names this process in the chunk records (which worker rendered what). Default `<hostname>:<pid>`. */
  readonly workerId?: string;
  /** Base of signed links and webhook URLs, e.g. `https://render.example.com`. Default: the listening address. */
  readonly publicBaseUrl?: string;
  /** Signed link lifetime. Default 900 s. */
  readonly signedUrlTtlSeconds?: number;
  /** Starts of one render before a crash-interrupted render fails with `render_interrupted`. Default 3. */
  readonly maxAttempts?: number;
  /** Minimum interval between persisted progress updates. Default 500 ms. */
  readonly progressIntervalMs?: number;
  /** How long idempotent answers are remembered. Default 24 h. */
  readonly idempotencyTtlSeconds?: number;
  /** Development only: accept `http://127.0.0.1|[::1]|localhost` callback URLs. */
  readonly allowInsecureCallbacks?: boolean;
  /**
   * Development only: let `url` renders and webhooks reach private, loopback and link-local addresses, and the
   * renderer load from them (its `unsafeAllowPrivateNetwork`).
   */
  readonly allowPrivateNetworkUrls?: boolean;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client of a request line
   * (`http/client-address.ts`). Default none: the connection's peer is the client.
   */
  readonly trustedProxies?: readonly string[];
  readonly limits?: Partial<Limits>;
  readonly webhooks?: Partial<WebhookSettings>;
  readonly queue?: Partial<QueueSettings>;
  /** When stored files go (`FX_SERVICE_RETENTION_DAYS`, `FX_SERVICE_DELETED_RETENTION_HOURS`). Default: kept. */
  readonly retention?: Partial<RetentionSettings>;
  /** Tried after the API keys, e.g. the OAuth access-token verifier. */
  readonly authenticators?: readonly Authenticator[];
  /** Where assets and outputs live. Default: local disk under `dataDir/blobs`. */
  readonly storage?: BlobStorage;
  /** Mounts more routes (e.g. the OAuth authorization server) before the 404 fallback. */
  readonly routes?: (app: Hono<ServiceEnv>) => void;
  /** Clock in milliseconds; injectable for tests. */
  readonly now?: () => number;
  /** Outbound HTTP for webhooks and `url` pages where private addresses are allowed (development, tests); otherwise they go through `publicFetch`, which pins the checked addresses. */
  readonly fetch?: typeof fetch;
  /** Operational log lines (job failures, webhook errors). Default: nothing; with `logger`, its lines too. */
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
  /**
   * Structured JSON lines (pino, `observe/logger.ts` `createServiceLogger`): one per request, render state change,
   * webhook attempt, job retry, and the operational lines of `log`. Default: none.
   */
  readonly logger?: ServiceLogger;
  /** `/metrics`: on (default), behind a token, on a port of its own. */
  readonly metrics?: Partial<MetricsSettings>;
}

/** Config with every default filled in. */
export interface ResolvedConfig extends Omit<
  Required<ServiceConfig>,
  | 'databaseUrl'
  | 'publicBaseUrl'
  | 'storage'
  | 'limits'
  | 'webhooks'
  | 'queue'
  | 'chunks'
  | 'logger'
  | 'metrics'
  | 'retention'
> {
  readonly logger: ServiceLogger | undefined;
  readonly metrics: MetricsSettings;
  readonly retention: RetentionSettings;
  readonly chunks: ChunkSettings;
  readonly queue: QueueSettings;
  readonly databaseUrl: string | undefined;
  readonly publicBaseUrl: string | undefined;
  readonly storage: BlobStorage | undefined;
  readonly limits: Limits;
  readonly webhooks: WebhookSettings;
}

export function resolveConfig(config: ServiceConfig): ResolvedConfig {
  return {
    role: config.role ?? ServiceRole.embedded,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl || undefined,
    render: config.render,
    renderOptions: config.renderOptions ?? {},
    concurrency: config.concurrency ?? 1,
    chunks: resolveChunkSettings(config.chunks),
    chunkRenderer: config.chunkRenderer ?? REAL_CHUNK_RENDERER,
    workerId: config.workerId ?? `${hostname()}:${process.pid}`,
    // Not a string: left for `checkConfig` to refuse.
    publicBaseUrl:
      typeof config.publicBaseUrl === 'string' ? config.publicBaseUrl.replace(/\/+$/, '') : config.publicBaseUrl,
    signedUrlTtlSeconds: config.signedUrlTtlSeconds ?? 900,
    maxAttempts: config.maxAttempts ?? 3,
    progressIntervalMs: config.progressIntervalMs ?? 500,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds ?? 86_400,
    allowInsecureCallbacks: config.allowInsecureCallbacks ?? false,
    allowPrivateNetworkUrls: config.allowPrivateNetworkUrls ?? false,
    trustedProxies: config.trustedProxies ?? [],
    limits: { ...DEFAULT_LIMITS, ...config.limits },
    webhooks: { ...DEFAULT_WEBHOOKS, ...config.webhooks },
    queue: { ...DEFAULT_QUEUE, ...config.queue },
    retention: { ...DEFAULT_RETENTION, ...config.retention },
    authenticators: config.authenticators ?? [],
    storage: config.storage,
    routes: config.routes ?? (() => {}),
    now: config.now ?? Date.now,
    fetch: config.fetch ?? globalThis.fetch,
    log: config.log ?? (() => {}),
    logger: config.logger,
    metrics: { ...DEFAULT_METRICS, ...config.metrics },
  };
}
