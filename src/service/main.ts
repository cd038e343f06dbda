/**
 * Starts the reference `/v3` service from its environment: every variable is in `settings/table.ts` (the table in
 * docs/service.md, `fx service --help`, `fx service check-config`), read and checked before anything starts.
 * Embedded defaults: SQLite and local files under ./.fx/service, port 8787, the real renderer from src/render.
 * Create a key first: `fx service create-key --account me`.
 */
import { join } from 'node:path';
import { render } from '../render/index.js';
import { ServiceRole } from './config.js';
import { installLastResort } from './last-resort.js';
import { createServiceLogger, operationalLog } from './observe/logger.js';
import { createService } from './service.js';
import { readServiceSettings } from './settings/read.js';
import { processCacheDir } from './storage/tree-cache.js';

const { values: settings, s3, chunks } = readServiceSettings(process.env);
const { role, dataDir, databaseUrl, port, host } = settings;
// JSON lines on stdout; on a terminal readable ones (pino-pretty, loaded only then).
const logger = createServiceLogger({
  level: settings.logLevel,
  ...(process.stdout.isTTY
    ? {
        destination: (await import('pino-pretty')).default({
          colorize: true,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss.l',
        }),
      }
    : {}),
});
const log = operationalLog(logger);
// Set before anything starts; `stop` is filled in once the service and the OAuth server run.
let stop = async () => {};
installLastResort(process, { log, shutdown: () => stop() });
// A wildcard listening address is no origin: the default issuer then names the loopback one.
const issuerHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const origin = settings.publicUrl ?? `http://${issuerHost}:${port}`;

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
        issuer: settings.oauthIssuer ?? `${origin}/oauth`,
        browserRedirectUris: settings.oauthBrowserRedirectUris,
        devAutoLogin: settings.devAutoLogin,
        trustedProxies: settings.trustedProxies,
        log,
      });
const { concurrency } = settings;
const service = await createService({
  role,
  dataDir,
  databaseUrl,
  render,
  concurrency,
  chunks,
  retention: { days: settings.retentionDays, deletedHours: settings.deletedRetentionHours },
  publicBaseUrl: settings.publicUrl,
  allowInsecureCallbacks: settings.allowInsecureCallbacks,
  trustedProxies: settings.trustedProxies,
  authenticators: oauth ? [oauth.authenticator] : [],
  ...(oauth ? { routes: oauth.routes } : {}),
  ...(storage ? { storage } : {}),
  logger,
  metrics: {
    enabled: settings.metrics === 'on',
    token: settings.metricsToken,
    ownPort: settings.metricsPort !== undefined,
    processMetrics: true,
  },
});
stop = () => service.close().then(() => oauth?.close());
if (oauth) {
  const { url } = await service.listen(port, host);
  const what = role === ServiceRole.api ? 'fx render service API (no renders here)' : 'fx render service';
  logger.info({ url, issuer: oauth.issuer }, `${what} listening on ${url} (OAuth issuer ${oauth.issuer})`);
} else {
  const health =
    settings.healthPort === undefined ? '' : `, health on ${(await service.listen(settings.healthPort, host)).url}`;
  logger.info({ concurrency }, `fx render worker running ${concurrency} render(s) at once${health}`);
}
if (settings.metrics === 'on' && settings.metricsPort !== undefined)
  logger.info(`metrics on ${(await service.listenMetrics(settings.metricsPort, host)).url}/metrics`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
