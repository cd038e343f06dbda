/**
 * Starts the reference `/v3` service with embedded defaults: SQLite and local files under ./.fx/service
 * (FX_SERVICE_DATA_DIR), or the records in PostgreSQL with FX_SERVICE_DATABASE_URL=postgres://…; port FX_SERVICE_PORT or 8787, the real renderer from src/render.
 * Create a key first: `node --import tsx src/service/admin.ts create-key --account me`.
 * The OAuth authorization server is mounted at FX_SERVICE_OAUTH_ISSUER (default: the public URL or
 * http://127.0.0.1:<port>, + /oauth); FX_SERVICE_OAUTH_BROWSER_REDIRECT_URIS (comma-separated) sets the browser
 * client's redirect URIs; FX_SERVICE_DEV_AUTO_LOGIN=<account> signs everyone in as that account (development).
 * FX_SERVICE_S3_BUCKET (with FX_SERVICE_S3_ENDPOINT, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY, _FORCE_PATH_STYLE)
 * keeps projects and outputs in an S3-compatible bucket instead of the local disk.
 * FX_SERVICE_ROLE=api (HTTP only) or worker (renders and webhooks only, no HTTP) splits the service into processes
 * on one PostgreSQL database; the default, embedded, is both in one process.
 * FX_SERVICE_CHUNK_WORKERS (with FX_SERVICE_CHUNK_MIN_FRAMES, FX_SERVICE_CHUNKS_PER_WORKER) splits long renders into
 * chunks that any worker renders, joined without re-encoding.
 */
import { join } from 'node:path';
import { render } from '../render/index.js';
import { ServiceRole } from './config.js';
import { chunkSettingsFromEnv } from './jobs/chunk-settings.js';
import { DATABASE_URL_ENV } from './db/open-stores.js';
import { installLastResort } from './last-resort.js';
import { DEFAULT_DATA_DIR, DEFAULT_PORT, ROLE_ENV } from './main-defaults.js';
import { createService } from './service.js';
import { s3SettingsFromEnv } from './storage/s3-settings.js';
import { processCacheDir } from './storage/tree-cache.js';

const role = parseRole(process.env[ROLE_ENV]);
const dataDir = process.env.FX_SERVICE_DATA_DIR ?? DEFAULT_DATA_DIR;
const databaseUrl = process.env[DATABASE_URL_ENV] || undefined;
const port = Number(process.env.FX_SERVICE_PORT ?? DEFAULT_PORT);
const host = process.env.FX_SERVICE_HOST ?? '127.0.0.1';
const log = (message: string, details?: Record<string, unknown>) =>
  console.error(`[fx-service] ${message}`, details ?? '');
// Set before anything starts; `stop` is filled in once the service and the OAuth server run.
let stop = async () => {};
installLastResort(process, { log, shutdown: () => stop() });
// A wildcard listening address is no origin: the default issuer then names the loopback one.
const issuerHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const origin = process.env.FX_SERVICE_PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${issuerHost}:${port}`;

const s3 = s3SettingsFromEnv(process.env);
const chunks = chunkSettingsFromEnv(process.env);
// The AWS SDK takes most of a second to load: only a service that uses a bucket loads it.
const storage =
  s3 &&
  new (await import('./storage/blob-storage.s3.js')).S3BlobStorage(s3, {
    cacheDir: await processCacheDir(join(dataDir, 's3-cache')),
  });

// A worker serves no HTTP: no authorization server either (nor oidc-provider loaded).
const oauth =
  role === ServiceRole.worker
    ? undefined
    : await (
        await import('./oauth/oauth-server.js')
      ).createOAuthServer({
        dataDir,
        databaseUrl,
        issuer: process.env.FX_SERVICE_OAUTH_ISSUER ?? `${origin}/oauth`,
        browserRedirectUris: process.env.FX_SERVICE_OAUTH_BROWSER_REDIRECT_URIS?.split(',')
          .map((uri) => uri.trim())
          .filter(Boolean),
        devAutoLogin: process.env.FX_SERVICE_DEV_AUTO_LOGIN || undefined,
        log,
      });
const concurrency = Number(process.env.FX_SERVICE_CONCURRENCY ?? 1);
const service = await createService({
  role,
  dataDir,
  databaseUrl,
  render,
  concurrency,
  chunks,
  publicBaseUrl: process.env.FX_SERVICE_PUBLIC_URL,
  allowInsecureCallbacks: process.env.FX_SERVICE_ALLOW_INSECURE_CALLBACKS === '1',
  authenticators: oauth ? [oauth.authenticator] : [],
  ...(oauth ? { routes: oauth.routes } : {}),
  ...(storage ? { storage } : {}),
  log,
});
stop = () => service.close().then(() => oauth?.close());
if (oauth) {
  const { url } = await service.listen(port, host);
  const what = role === ServiceRole.api ? 'fx render service API (no renders here)' : 'fx render service';
  console.log(`${what} listening on ${url} (OAuth issuer ${oauth.issuer})`);
} else console.log(`fx render worker running ${concurrency} render(s) at once`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

function parseRole(value: string | undefined): ServiceRole {
  if (value === undefined || value === '') return ServiceRole.embedded;
  if (Object.values<string>(ServiceRole).includes(value)) return value as ServiceRole;
  throw new Error(`"${ROLE_ENV}" must be one of ${Object.values(ServiceRole).join(', ')}, got "${value}"`);
}
