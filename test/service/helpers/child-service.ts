/**
 * The service as its own process, for the crash and multi-process tests:
 * `node --import tsx child-service.ts <dataDir> [embedded|api|worker]` prints `listening <url>` (or `working`, for a
 * worker) once ready, then `rendering <id>` for each render it starts (`joining <id>` for each chunked one it joins); FX_SERVICE_DATABASE_URL puts its records in PostgreSQL, FX_SERVICE_S3_* its files in S3, FX_SERVICE_CONCURRENCY sets its
 * concurrency. Frames are produced in real time so a test can kill it mid-render; leases are short (seconds) so a
 * killed worker's render comes back quickly. The service's log lines go to `<dataDir>/logs/<role>-<pid>.log`
 * (`logLinesAbout` reads them when a test fails), and to stderr too with FX_TEST_CHILD_LOG=1.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ServiceRole } from '../../../src/service/config.js';
import { DATABASE_URL_ENV } from '../../../src/service/db/open-stores.js';
import { chunkSettingsFromEnv } from '../../../src/service/jobs/chunk-settings.js';
import { createService } from '../../../src/service/service.js';
import { s3SettingsFromEnv } from '../../../src/service/storage/s3-settings.js';
import { S3BlobStorage } from '../../../src/service/storage/blob-storage.s3.js';
import { createFfmpegRenderer } from './ffmpeg-renderer.js';
import { childLogFile } from './child-logs.js';

/** The queue settings of child services: a killed worker's job is back within about 5 s + 1 s. */
const CHILD_QUEUE = {
  leaseSeconds: 5,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
};

const renderer = createFfmpegRenderer({ realtime: true });
const [dataDir, role = ServiceRole.embedded] = process.argv.slice(2) as [string | undefined, ServiceRole?];
if (!dataDir) throw new Error('usage: child-service.ts <dataDir> [embedded|api|worker]');
const logFile = childLogFile(dataDir, role, process.pid);
mkdirSync(dirname(logFile), { recursive: true });
const s3 = s3SettingsFromEnv(process.env);
const service = await createService({
  role,
  dataDir,
  databaseUrl: process.env[DATABASE_URL_ENV],
  // Processes of one test share `dataDir`: each downloads projects into a cache of its own.
  ...(s3 ? { storage: new S3BlobStorage(s3, { cacheDir: join(dataDir, 's3-cache', String(process.pid)) }) } : {}),
  render: (options) => {
    // Which process renders what, for tests that kill the one rendering.
    console.log(`rendering ${basename(dirname(dirname(options.outputPath)))}`);
    return renderer(options);
  },
  concurrency: Number(process.env.FX_SERVICE_CONCURRENCY ?? 1),
  // FX_SERVICE_CHUNK_* split long renders; chunks use the real renderer, and the join says who joined what.
  chunks: chunkSettingsFromEnv(process.env),
  chunkRenderer: {
    renderChunk: async (options) => (await import('../../../src/render/index.js')).renderChunk(options),
    joinChunks: async (options) => {
      console.log(`joining ${basename(dirname(dirname(options.outputPath)))}`);
      // FX_TEST_JOIN_DELAY_MS holds the join, so a test can kill the joining worker.
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.FX_TEST_JOIN_DELAY_MS ?? 0)));
      return (await import('../../../src/render/index.js')).joinChunks(options);
    },
  },
  allowInsecureCallbacks: true,
  allowPrivateNetworkUrls: true,
  progressIntervalMs: 50,
  webhooks: { pollMs: 50, retryBaseMs: 100 },
  queue: CHILD_QUEUE,
  log: (message, details) => {
    const line = `[${role} ${process.pid}] ${message}${details ? ` ${JSON.stringify(details)}` : ''}`;
    appendFileSync(logFile, `${line}\n`);
    if (process.env.FX_TEST_CHILD_LOG) console.error(line);
  },
});
if (role === ServiceRole.worker) console.log('working');
else console.log(`listening ${(await service.listen(0)).url}`);
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
