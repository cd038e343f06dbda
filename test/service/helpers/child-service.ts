/**
 * The service as its own process, for the crash test: `node --import tsx child-service.ts <dataDir>` prints
 * `listening <url>` once ready; FX_SERVICE_DATABASE_URL puts its records in PostgreSQL. Frames are produced in
 * real time so the test can kill it mid-render.
 */
import { DATABASE_URL_ENV } from '../../../src/service/db/open-stores.js';
import { createService } from '../../../src/service/service.js';
import { createFfmpegRenderer } from './ffmpeg-renderer.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: child-service.ts <dataDir>');
const service = await createService({
  dataDir,
  databaseUrl: process.env[DATABASE_URL_ENV],
  render: createFfmpegRenderer({ realtime: true }),
  allowInsecureCallbacks: true,
  allowPrivateNetworkUrls: true,
  progressIntervalMs: 50,
  webhooks: { pollMs: 50, retryBaseMs: 100 },
});
const { url } = await service.listen(0);
console.log(`listening ${url}`);
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
