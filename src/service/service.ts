import { createAdaptorServer } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { RenderStatus } from '../wire/constants.js';
import { chainAuthenticators } from './auth/authenticator.js';
import { checkConfig } from './config-check.js';
import { resolveConfig, ServiceRole, type ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { DatabaseError, DatabaseErrorCode } from './db/errors.js';
import { openStores } from './db/open-stores.js';
import { createApp, createMetricsApp, createWorkerApp } from './http/app.js';
import { answerClientErrors } from './http/client-error.js';
import { recoverInterrupted } from './jobs/crash-recovery.js';
import { openJobQueue } from './jobs/open-queue.js';
import { runChunkJob } from './jobs/chunk-job.js';
import { runRenderJob } from './jobs/render-job.js';
import { ServiceEvents } from './observe/events.js';
import { logEvents, operationalLog } from './observe/logger.js';
import { createMetrics, type ServiceMetrics } from './observe/metrics.js';
import { observeRenders } from './observe/observed-renders.js';
import { sweepRetention } from './jobs/retention-sweep.js';
import { UrlSigner } from './signing/url-signer.js';
import { LocalBlobStorage } from './storage/blob-storage.local.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

export { DATABASE_FILE } from './db/stores.sqlite.js';
const PURGE_INTERVAL_MS = 3_600_000;
/** The first retention sweep comes after at most this long, so a process restarted often still sweeps. */
const FIRST_RETENTION_SWEEP_MS = 60_000;

export interface Service {
  /** The HTTP API as a fetch handler (usable without listening). */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly context: ServiceContext;
  /** Starts the HTTP server; port 0 picks a free one. A `worker`'s serves `/healthz`, `/readyz` and `/metrics` only. */
  listen(port?: number, hostname?: string): Promise<{ port: number; url: string }>;
  /** Starts a server of `/metrics` alone (with `metrics.ownPort`, the only one that serves it). */
  listenMetrics(port?: number, hostname?: string): Promise<{ port: number; url: string }>;
  /** Stops accepting requests, puts running renders back in the queue, stops webhooks, closes the database. */
  close(): Promise<void>;
}

/**
 * Builds the reference `/v3` service from embedded defaults (SQLite in `dataDir`, files on local disk, an
 * in-process queue) and recovers from a previous crash before taking jobs: renders left `rendering` are queued
 * again, or failed with `render_interrupted` after `maxAttempts` starts. With `databaseUrl` the queue is pg-boss
 * and `role` may split the service: `api` processes serve HTTP, `worker` processes render and send webhooks.
 * Settings that cannot work (a negative lease, a timer past Node's limit, an unknown `limits` key) throw
 * `service_config_invalid` with one issue per problem, before anything is opened.
 *
 * @example
 * const service = await createService({ dataDir: '.fx/service', render });
 * const { url } = await service.listen(8787);
 */
export async function createService(input: ServiceConfig): Promise<Service> {
  const resolved = resolveConfig(input);
  checkConfig(resolved, { ...input });
  const events = new ServiceEvents();
  const { logger } = resolved;
  // The operational lines go to the caller's `log` as before, and with a logger to it as well.
  const config = logger
    ? {
        ...resolved,
        log: (message: string, details?: Record<string, unknown>) => {
          resolved.log(message, details);
          operationalLog(logger)(message, details);
        },
      }
    : resolved;
  if (logger) logEvents(events, logger);
  const { role } = config;
  if (role !== ServiceRole.embedded && !config.databaseUrl)
    throw new DatabaseError(
      DatabaseErrorCode.required,
      `the "${role}" role needs "databaseUrl" (PostgreSQL), got none`,
    );
  const renders = role !== ServiceRole.api;
  const stores = await openStores(config);
  const storage = config.storage ?? new LocalBlobStorage(join(config.dataDir, 'blobs'));
  // Several processes may share `dataDir`: only the one embedded process clears its leftovers.
  if (role === ServiceRole.embedded) {
    await storage.sweep?.();
    await rm(join(config.dataDir, 'work'), { recursive: true, force: true });
  }
  const { apiKeys } = stores;
  let listening: string | undefined;
  const queue = await openJobQueue(config, stores, events);
  const observedRenders = observeRenders(stores.renders, events, config.now);
  let dispatcher: WebhookDispatcher | undefined;
  const context: ServiceContext = {
    config,
    accounts: stores.accounts,
    apiKeys,
    assets: stores.assets,
    renders: observedRenders,
    chunks: stores.chunks,
    idempotency: stores.idempotency,
    outbox: stores.outbox,
    storage,
    signer: new UrlSigner(
      Buffer.from(
        await stores.settings.getOrCreate('url_signing_secret', () => randomBytes(32).toString('base64')),
        'base64',
      ),
    ),
    queue,
    authenticator: chainAuthenticators([apiKeys, ...config.authenticators]),
    events,
    baseUrl: (fallback) => config.publicBaseUrl ?? listening ?? fallback ?? 'http://127.0.0.1',
    wakeWebhooks: () => dispatcher?.wake(),
    pingDatabase: () => stores.ping(),
  };

  // Start-up sweeps that assume no other process: pg-boss's leases replace crash recovery.
  if (!stores.postgres) await recoverInterrupted(context);
  if (role === ServiceRole.embedded) await context.idempotency.clearInFlight();
  // A database away at that moment must not end the process with an unhandled rejection.
  const purge = setInterval(
    () =>
      context.idempotency
        .purgeExpired(config.now())
        .catch((error) => config.log('idempotency keys not purged', { error: String(error) })),
    PURGE_INTERVAL_MS,
  );
  purge.unref();

  // Retention, in every process (each removal is taken by one of them); one sweep at a time, errors logged.
  let retentionTimer: NodeJS.Timeout | undefined;
  let retentionSweep: Promise<void> | undefined;
  let closing = false;
  const scheduleRetention = (delayMs: number) => {
    retentionTimer = setTimeout(() => {
      retentionSweep = sweepRetention(context)
        .then(
          () => {},
          (error) => config.log('render files not removed', { error: String(error) }),
        )
        .finally(() => {
          retentionSweep = undefined;
          if (!closing) scheduleRetention(config.retention.sweepIntervalMs);
        });
    }, delayMs);
    retentionTimer.unref();
  };
  scheduleRetention(Math.min(config.retention.sweepIntervalMs, FIRST_RETENTION_SWEEP_MS));

  // Queued renders get their jobs: on SQLite the in-process queue starts empty, so this rebuilds it. On PostgreSQL a
  // render and its job are stored in one transaction; the start-up and periodic sweep is a safety net that revives
  // a queued render's job that used up its retries (a database away longer than the backoff).
  const enqueueQueued = async () => {
    for (const id of await context.renders.queuedIds()) await queue.enqueue(id);
  };
  let sweep: NodeJS.Timeout | undefined;
  if (renders) {
    if (role === ServiceRole.worker) await removeFinishedWork(context);
    queue.start((job) => (job.chunk ? runChunkJob(context, { ...job, chunk: job.chunk }) : runRenderJob(context, job)));
    await enqueueQueued();
    if (stores.postgres)
      sweep = setInterval(
        () => enqueueQueued().catch((error) => config.log('queued renders not swept', { error: String(error) })),
        config.queue.sweepIntervalMs,
      );
    dispatcher = new WebhookDispatcher(context);
    dispatcher.start();
  }

  const metrics: ServiceMetrics | undefined = config.metrics.enabled
    ? createMetrics(
        events,
        {
          queue: async () => {
            const ids = await stores.renders.queuedIds();
            const oldest = ids[0] === undefined ? undefined : await stores.renders.find(ids[0]);
            return { depth: ids.length, oldestCreatedAt: oldest?.createdAt };
          },
          outboxPending: () => stores.outbox.pendingCount(),
          now: config.now,
        },
        { processMetrics: config.metrics.processMetrics },
      )
    : undefined;
  const served = { metrics: config.metrics.ownPort ? undefined : metrics, token: config.metrics.token };
  const app = role === ServiceRole.worker ? createWorkerApp(context, served) : createApp(context, served);
  const servers: Server[] = [];
  const serve = async (fetch: (request: Request) => Response | Promise<Response>, port: number, hostname: string) => {
    const server = createAdaptorServer({ fetch }) as Server;
    answerClientErrors(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostname, () => resolve());
    });
    servers.push(server);
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return { port: address.port, url: `http://${host}:${address.port}` };
  };
  return {
    fetch: async (request) => app.fetch(request),
    context,
    async listen(port = 0, hostname = '127.0.0.1') {
      const answer = await serve(app.fetch, port, hostname);
      listening = answer.url;
      return answer;
    },
    async listenMetrics(port = 0, hostname = '127.0.0.1') {
      return serve(createMetricsApp(context, { metrics, token: config.metrics.token }).fetch, port, hostname);
    },
    async close() {
      clearInterval(purge);
      clearInterval(sweep);
      closing = true;
      clearTimeout(retentionTimer);
      await Promise.all(
        servers.map((server) => {
          const closed = new Promise((resolve) => server.close(resolve));
          server.closeAllConnections();
          return closed;
        }),
      );
      await queue.stop();
      await dispatcher?.stop();
      await retentionSweep;
      await stores.close();
    },
  };
}

/**
 * A worker's start-up cleaning of `work/` (which other workers may share): folders of renders no longer
 * `rendering` are leftovers of a killed worker; a `rendering` one may be another worker's, and is left.
 */
async function removeFinishedWork(context: ServiceContext): Promise<void> {
  const work = join(context.config.dataDir, 'work');
  for (const id of await readdir(work).catch(() => [] as string[]))
    if ((await context.renders.find(id))?.status !== RenderStatus.rendering)
      await rm(join(work, id), { recursive: true, force: true });
}
