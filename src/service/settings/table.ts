/**
 * Every setting a service process reads from its environment, said once: its variable, the `fx service` flag that
 * sets it, its type and default as shown to people, the roles that read it, whether it is secret, and how its text
 * is read. `main.ts` reads them all through `readServiceSettings`, `fx service check-config` prints them, and
 * `fx service --help` and the table in docs/service.md are made from them (a test compares the docs).
 */
import { DEFAULT_MIN_CHUNK_FRAMES } from '../../render/chunks/plan.js';
import { DEFAULT_EXECUTABLES, ExecutableEnv } from '../../render/executables.js';
import { DEFAULT_RETENTION, ServiceRole } from '../config.js';
import { DATABASE_URL_ENV } from '../db/open-stores.js';
import { CHUNK_ENV } from '../jobs/chunk-settings.js';
import { DEFAULT_DATA_DIR, DEFAULT_PORT, ROLE_ENV } from '../main-defaults.js';
import { S3_ENV } from '../storage/s3-settings.js';
import { LOG_LEVELS, type LogLevel } from '../observe/log-levels.js';
import { addressList, choice, commaList, flag, httpUrl, integer, metricsToken, postgresUrl, text } from './readers.js';

/** How a secret is kept out of what is printed: entirely, or only a URL's password. */
export const Secret = { whole: 'whole', password: 'password' } as const;
export type Secret = (typeof Secret)[keyof typeof Secret];

export interface ServiceSetting<T> {
  readonly env: string;
  /** The `fx service` flag that sets the variable for the process it starts. */
  readonly flag?: string;
  /** The type as people read it: `integer 0–65535`, `postgres:// URL`. */
  readonly type: string;
  /** The value when unset (or empty). */
  readonly default: T;
  /** The default as people read it, where the value alone does not say it (`none: SQLite`). */
  readonly shownDefault?: string;
  /** The service processes that read it (none: the `fx` command's own, src/cli/client-settings.ts). */
  readonly roles: readonly ServiceRole[];
  readonly secret?: Secret;
  readonly summary: string;
  /** Reads a set, non-empty value; throws an `Error` whose message says what was expected. */
  readonly read: (text: string) => T;
  /** Read and checked with the others of its group (`s3SettingsFromEnv`, `chunkSettingsFromEnv`). */
  readonly group?: 's3' | 'chunks';
}

export const setting = <T>(definition: ServiceSetting<T>) => definition;
const ALL = [ServiceRole.embedded, ServiceRole.api, ServiceRole.worker] as const;
const HTTP = [ServiceRole.embedded, ServiceRole.api] as const;
const RENDERS = [ServiceRole.embedded, ServiceRole.worker] as const;
export const none = undefined as string | undefined;

export const SERVICE_SETTINGS = {
  role: setting({
    env: ROLE_ENV,
    type: Object.values(ServiceRole).join(' | '),
    default: ServiceRole.embedded as ServiceRole,
    roles: ALL,
    summary:
      'what this process does: all of it, HTTP only, or renders and webhooks only (`fx service api|worker` set it)',
    read: choice(Object.values(ServiceRole)),
  }),
  dataDir: setting({
    env: 'FX_SERVICE_DATA_DIR',
    flag: 'data-dir',
    type: 'folder',
    default: DEFAULT_DATA_DIR,
    roles: ALL,
    summary: 'the SQLite database, local files (`blobs/`) and work folders',
    read: text,
  }),
  databaseUrl: setting({
    env: DATABASE_URL_ENV,
    flag: 'database-url',
    type: 'postgres:// URL',
    default: none,
    shownDefault: 'none: SQLite in the data folder',
    roles: ALL,
    secret: Secret.password,
    summary: 'keep the records in this PostgreSQL database (needed by `api` and `worker`)',
    read: postgresUrl,
  }),
  port: setting({
    env: 'FX_SERVICE_PORT',
    flag: 'port',
    type: 'integer 0–65535',
    default: DEFAULT_PORT,
    roles: HTTP,
    summary: 'HTTP port (0: any free one)',
    read: integer(0, 65_535),
  }),
  host: setting({
    env: 'FX_SERVICE_HOST',
    type: 'address',
    default: '127.0.0.1',
    roles: ALL,
    summary: 'address to listen on (`0.0.0.0` or `::` for every interface)',
    read: text,
  }),
  healthPort: setting({
    env: 'FX_SERVICE_HEALTH_PORT',
    type: 'integer 0–65535',
    default: undefined as number | undefined,
    shownDefault: 'none: no HTTP on a worker',
    roles: [ServiceRole.worker],
    summary:
      "a worker's port for `/healthz`, `/readyz` and `/metrics` (an `api` or embedded process answers them on its own port)",
    read: integer(0, 65_535),
  }),
  metrics: setting({
    env: 'FX_SERVICE_METRICS',
    type: 'on | off',
    default: 'on' as 'on' | 'off',
    roles: ALL,
    summary: 'serve Prometheus text at `GET /metrics` (off: 404)',
    read: choice(['on', 'off'] as const),
  }),
  metricsToken: setting({
    env: 'FX_SERVICE_METRICS_TOKEN',
    type: 'text, 16 or more printable characters',
    default: none,
    shownDefault: 'none: no credentials asked',
    roles: ALL,
    secret: Secret.whole,
    summary: '`/metrics` answers only `Authorization: Bearer <token>` (401 otherwise)',
    read: metricsToken,
  }),
  metricsPort: setting({
    env: 'FX_SERVICE_METRICS_PORT',
    type: 'integer 0–65535',
    default: undefined as number | undefined,
    shownDefault: "none: on the HTTP port (a worker's health port)",
    roles: ALL,
    summary: 'serve `/metrics` on this port of its own, and not on the HTTP or health port',
    read: integer(0, 65_535),
  }),
  logLevel: setting({
    env: 'FX_SERVICE_LOG_LEVEL',
    type: LOG_LEVELS.join(' | '),
    default: 'info' as LogLevel,
    roles: ALL,
    summary: 'the least severe log line written (JSON lines on stdout; readable ones on a terminal)',
    read: choice(LOG_LEVELS),
  }),
  publicUrl: setting({
    env: 'FX_SERVICE_PUBLIC_URL',
    type: 'http(s) URL',
    default: none,
    shownDefault: 'the listening address',
    roles: ALL,
    summary: 'origin of signed links and webhook payload links, behind a proxy; workers need the API origin',
    read: httpUrl,
  }),
  concurrency: setting({
    env: 'FX_SERVICE_CONCURRENCY',
    flag: 'concurrency',
    type: 'integer 1–64',
    default: 1,
    roles: RENDERS,
    summary: 'renders this process runs at once',
    read: integer(1, 64),
  }),
  oauthIssuer: setting({
    env: 'FX_SERVICE_OAUTH_ISSUER',
    type: 'http(s) URL',
    default: none,
    shownDefault: 'the public URL + /oauth',
    roles: HTTP,
    summary: 'issuer of the OAuth 2.0 authorization server mounted at its path',
    read: httpUrl,
  }),
  trustedProxies: setting({
    env: 'FX_SERVICE_TRUSTED_PROXIES',
    type: 'comma-separated addresses or CIDR ranges',
    default: [] as string[],
    shownDefault: 'none: the connection is the client',
    roles: HTTP,
    summary:
      "reverse proxies whose `X-Forwarded-For` names the client (the sign-in limiter's and the request lines' address)",
    read: addressList,
  }),
  oauthBrowserRedirectUris: setting({
    env: 'FX_SERVICE_OAUTH_BROWSER_REDIRECT_URIS',
    type: 'comma-separated URLs',
    default: [] as string[],
    shownDefault: 'none',
    roles: HTTP,
    summary: 'redirect URIs of the browser client (`<fx-render-button>` sign-in pages)',
    read: commaList,
  }),
  s3Bucket: setting({
    env: S3_ENV.bucket,
    type: 'bucket name',
    default: none,
    shownDefault: 'none: files on the local disk',
    roles: ALL,
    summary: 'keep projects, videos and thumbnails in this S3-compatible bucket',
    read: text,
    group: 's3',
  }),
  s3Endpoint: setting({
    env: S3_ENV.endpoint,
    type: 'http(s) origin',
    default: none,
    shownDefault: 'AWS',
    roles: ALL,
    summary: 'the S3-compatible service (MinIO, R2, Ceph…)',
    read: text,
    group: 's3',
  }),
  s3Region: setting({
    env: S3_ENV.region,
    type: 'region name',
    default: 'us-east-1',
    roles: ALL,
    summary: "the bucket's region",
    read: text,
    group: 's3',
  }),
  s3AccessKeyId: setting({
    env: S3_ENV.accessKeyId,
    type: 'text',
    default: none,
    shownDefault: "the AWS SDK's default chain",
    roles: ALL,
    summary: 'access key, set with its secret',
    read: text,
    group: 's3',
  }),
  s3SecretAccessKey: setting({
    env: S3_ENV.secretAccessKey,
    type: 'text',
    default: none,
    shownDefault: "the AWS SDK's default chain",
    roles: ALL,
    secret: Secret.whole,
    summary: "the access key's secret",
    read: text,
    group: 's3',
  }),
  s3ForcePathStyle: setting({
    env: S3_ENV.forcePathStyle,
    type: '1 | 0 | true | false',
    default: '0',
    roles: ALL,
    summary: 'address the bucket in the path (most self-hosted servers)',
    read: text,
    group: 's3',
  }),
  chunkWorkers: setting({
    env: CHUNK_ENV.workers,
    type: 'integer 1–1024',
    default: '1',
    roles: ALL,
    summary: 'workers a long render is split for (1: every render is one job)',
    read: text,
    group: 'chunks',
  }),
  chunkMinFrames: setting({
    env: CHUNK_ENV.minChunkFrames,
    type: 'integer ≥ 1',
    default: String(DEFAULT_MIN_CHUNK_FRAMES),
    roles: ALL,
    summary: 'fewest frames of a chunk',
    read: text,
    group: 'chunks',
  }),
  chunksPerWorker: setting({
    env: CHUNK_ENV.chunksPerWorker,
    type: 'integer 1–64',
    default: '1',
    roles: ALL,
    summary: 'chunks per worker (more, smaller chunks balance uneven workers)',
    read: text,
    group: 'chunks',
  }),
  retentionDays: setting({
    env: 'FX_SERVICE_RETENTION_DAYS',
    type: 'integer 1–36500',
    default: undefined as number | undefined,
    shownDefault: 'none: kept for ever',
    roles: ALL,
    summary:
      "days a finished render's video, thumbnail and page are kept (then its GET has no links; the record stays), and an asset's files after its last use",
    read: integer(1, 36_500),
  }),
  deletedRetentionHours: setting({
    env: 'FX_SERVICE_DELETED_RETENTION_HOURS',
    type: 'integer 0–876000',
    default: DEFAULT_RETENTION.deletedHours,
    roles: ALL,
    summary:
      "hours after a render's delete by which whatever is left of its files is removed (`DELETE` removes its outputs at once)",
    read: integer(0, 876_000),
  }),
  allowInsecureCallbacks: setting({
    env: 'FX_SERVICE_ALLOW_INSECURE_CALLBACKS',
    type: '1 | 0 | true | false',
    default: false,
    roles: ALL,
    summary: 'development only: accept `http://127.0.0.1` and `localhost` webhook URLs',
    read: flag,
  }),
  devAutoLogin: setting({
    env: 'FX_SERVICE_DEV_AUTO_LOGIN',
    type: 'account id',
    default: none,
    shownDefault: 'none',
    roles: HTTP,
    summary: 'development only: sign everyone in as this account, with no password',
    read: text,
  }),
  chromium: setting({
    env: ExecutableEnv.chromium,
    type: 'file',
    default: DEFAULT_EXECUTABLES.chromium,
    roles: RENDERS,
    summary: "the renderer's Chromium",
    read: text,
  }),
  chromiumHeadlessShell: setting({
    env: ExecutableEnv.headlessShell,
    type: 'file',
    default: DEFAULT_EXECUTABLES.headlessShell,
    roles: RENDERS,
    summary: "the renderer's headless shell, used where it is installed",
    read: text,
  }),
  ffmpeg: setting({
    env: ExecutableEnv.ffmpeg,
    type: 'command',
    default: DEFAULT_EXECUTABLES.ffmpeg,
    roles: RENDERS,
    summary: 'the encoder',
    read: text,
  }),
  ffprobe: setting({
    env: ExecutableEnv.ffprobe,
    type: 'command',
    default: DEFAULT_EXECUTABLES.ffprobe,
    roles: RENDERS,
    summary: "the probe of media files' durations and streams",
    read: text,
  }),
} as const;

export type SettingName = keyof typeof SERVICE_SETTINGS;
/** Every setting's value as the process uses it. */
export type ServiceSettings = {
  -readonly [Name in SettingName]:
    ReturnType<(typeof SERVICE_SETTINGS)[Name]['read']> | (typeof SERVICE_SETTINGS)[Name]['default'];
};
