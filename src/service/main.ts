/**
 * Starts the reference `/v3` service with embedded defaults: SQLite and local files under ./.fx/service
 * (FX_SERVICE_DATA_DIR), port FX_SERVICE_PORT or 8787, the real renderer from src/render.
 * Create a key first: `node --import tsx src/service/admin.ts create-key --account me`.
 */
import { render } from '../render/index.js';
import { DEFAULT_DATA_DIR, DEFAULT_PORT } from './main-defaults.js';
import { createService } from './service.js';

const service = await createService({
  dataDir: process.env.FX_SERVICE_DATA_DIR ?? DEFAULT_DATA_DIR,
  render,
  concurrency: Number(process.env.FX_SERVICE_CONCURRENCY ?? 1),
  publicBaseUrl: process.env.FX_SERVICE_PUBLIC_URL,
  allowInsecureCallbacks: process.env.FX_SERVICE_ALLOW_INSECURE_CALLBACKS === '1',
  log: (message, details) => console.error(`[fx-service] ${message}`, details ?? ''),
});
const { url } = await service.listen(Number(process.env.FX_SERVICE_PORT ?? DEFAULT_PORT), process.env.FX_SERVICE_HOST ?? '127.0.0.1');
console.log(`fx render service listening on ${url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    service.close().then(() => process.exit(0), () => process.exit(1));
  });
}
