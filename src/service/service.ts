import { createAdaptorServer } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chainAuthenticators } from './auth/authenticator.js';
import { resolveConfig, type ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { openStores } from './db/open-stores.js';
import { createApp } from './http/app.js';
import { answerClientErrors } from './http/client-error.js';
import { recoverInterrupted } from './jobs/crash-recovery.js';
import { LocalJobQueue } from './jobs/job-queue.local.js';
import { runRenderJob } from './jobs/render-job.js';
import { UrlSigner } from './signing/url-signer.js';
import { LocalBlobStorage } from './storage/blob-storage.local.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

export { DATABASE_FILE } from './db/stores.sqlite.js';
const PURGE_INTERVAL_MS = 3_600_000;

export interface Service {
  /** The HTTP API as a fetch handler (usable without listening). */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly context: ServiceContext;
  /** Starts the HTTP server; port 0 picks a free one. */
  listen(port?: number, hostname?: string): Promise<{ port: number; url: string }>;
  /** Stops accepting requests, puts running renders back in the queue, stops webhooks, closes the database. */
  close(): Promise<void>;
}

/**
 * Builds the reference `/v3` service from embedded defaults (SQLite in `dataDir`, files on local disk, an
 * in-process queue) and recovers from a previous crash before taking jobs: renders left `rendering` are queued
 * again, or failed with `render_interrupted` after `maxAttempts` starts.
 *
 * @example
 * const service = await createService({ dataDir: '.fx/service', render });
 * const { url } = await service.listen(8787);
 */
export async function createService(input: ServiceConfig): Promise<Service> {
  const config = resolveConfig(input);
  const stores = await openStores(config);
  const storage = config.storage ?? new LocalBlobStorage(join(config.dataDir, 'blobs'));
  await storage.sweep?.();
  await rm(join(config.dataDir, 'work'), { recursive: true, force: true });
  const { apiKeys } = stores;
  let listening: string | undefined;
  const queue = new LocalJobQueue(config.concurrency, (renderId, error) =>
    config.log('job crashed', { renderId, error: String(error) }),
  );
  let dispatcher: WebhookDispatcher | undefined;
  const context: ServiceContext = {
    config,
    accounts: stores.accounts,
    apiKeys,
    assets: stores.assets,
    renders: stores.renders,
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
    baseUrl: (fallback) => config.publicBaseUrl ?? listening ?? fallback ?? 'http://127.0.0.1',
    wakeWebhooks: () => dispatcher?.wake(),
  };

  await recoverInterrupted(context);
  await context.idempotency.clearInFlight();
  const purge = setInterval(() => void context.idempotency.purgeExpired(config.now()), PURGE_INTERVAL_MS);
  purge.unref();

  queue.start((job) => runRenderJob(context, job));
  for (const id of await context.renders.queuedIds()) await queue.enqueue(id);
  dispatcher = new WebhookDispatcher(context);
  dispatcher.start();

  const app = createApp(context);
  let server: Server | undefined;
  return {
    fetch: async (request) => app.fetch(request),
    context,
    async listen(port = 0, hostname = '127.0.0.1') {
      server = createAdaptorServer({ fetch: app.fetch }) as Server;
      answerClientErrors(server);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, hostname, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      listening = `http://${host}:${address.port}`;
      return { port: address.port, url: listening };
    },
    async close() {
      clearInterval(purge);
      if (server) {
        const closed = new Promise((resolve) => server!.close(resolve));
        server.closeAllConnections();
        await closed;
      }
      await queue.stop();
      await dispatcher?.stop();
      await stores.close();
    },
  };
}
