// /healthz and /readyz (issue 31 §1): on SQLite and local files, and in the PostgreSQL stage on PostgreSQL and S3,
// where the database and the bucket are reached through TCP proxies that stop passing anything (as a stopped
// server or a dead network path does) and pass again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { sharedPostgresCluster } from '../fixtures/postgres-cluster.js';
import { sharedS3Server } from '../fixtures/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';
import { ServiceRole } from '../../src/service/config.js';
import { ReadinessCheck } from '../../src/service/health/readiness.js';
import { createService } from '../../src/service/service.js';
import type { BlobStorage } from '../../src/service/storage/blob-storage.js';
import { LocalBlobStorage } from '../../src/service/storage/blob-storage.local.js';
import { Route } from '../../src/wire/constants.js';
import { newTestLocation, onPostgres, removeTestLocation } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import { startTestService, waitFor, type TestService } from './helpers/harness.js';
import { onS3, testStorage } from './helpers/storage.js';

interface ReadyAnswer {
  status: string;
  checks: { name: string; ok: boolean; ms: number }[];
}

/** Proxies in front of the database (PostgreSQL) and the bucket (S3), where the stage has them. */
const proxies: { database?: TcpProxy; bucket?: TcpProxy } = {};
/** On local files: a storage whose reads fail while `failing` is set. */
let failing = false;
let service: TestService;
const logged: string[] = [];

before(async () => {
  if (onPostgres) proxies.database = await startTcpProxy((await sharedPostgresCluster()).port);
  if (onS3) proxies.bucket = await startTcpProxy(Number(new URL((await sharedS3Server()).endpoint).port));
  service = await startTestService((location) => {
    const through = (address: string, proxy: TcpProxy) => {
      const url = new URL(address);
      url.port = String(proxy.port);
      return url.toString();
    };
    const storage =
      location.s3 && proxies.bucket
        ? testStorage(location.dataDir, {
            ...location.s3,
            endpoint: new URL(through(location.s3.endpoint!, proxies.bucket)).origin,
          })
        : location.storage;
    return {
      ...(location.databaseUrl && proxies.database
        ? { databaseUrl: through(location.databaseUrl, proxies.database) }
        : {}),
      ...(storage ? { storage } : {}),
      ...(!onS3 && { storage: failingWhenAsked(location.dataDir) }),
      log: (message: string, details?: Record<string, unknown>) => {
        logged.push(`${message} ${JSON.stringify(details)}`);
      },
    };
  });
});

after(async () => {
  await service?.close();
  await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
});

/** Local files (the service's default) with reads that fail while `failing` is set. */
function failingWhenAsked(dataDir: string): BlobStorage {
  const storage = new LocalBlobStorage(join(dataDir, 'blobs'));
  return new Proxy(storage, {
    get(target, name, receiver) {
      if (name === 'read' && failing) return () => Promise.reject(new Error('storage unreachable'));
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function ready(url = service.url): Promise<{ status: number; body: ReadyAnswer; cache: string | null }> {
  const answer = await fetch(`${url}${Route.readyz}`);
  return {
    status: answer.status,
    body: (await answer.json()) as ReadyAnswer,
    cache: answer.headers.get('cache-control'),
  };
}

/** Asks /readyz until it answers 200. */
const untilReady = (timeoutMs: number) =>
  waitFor(
    async () => {
      const answer = await ready();
      return answer.status === 200 ? answer : undefined;
    },
    timeoutMs,
    'ready again',
  );

const failed = (body: ReadyAnswer) => body.checks.filter((check) => !check.ok).map((check) => check.name);

test('/healthz answers while the process serves, without credentials', async () => {
  const answer = await fetch(`${service.url}${Route.healthz}`);
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { status: 'ok' });
  assert.equal(answer.headers.get('cache-control'), 'no-store');
});

test('/readyz names each check of a process that serves and renders, all passing', async () => {
  // The first probe starts `chromium --version` and `ffmpeg -version`; on a busy machine one may miss the 2 s
  // deadline (not ready, said in the log) and pass at the next probe, its answer kept from the one before.
  const { status, body, cache } = await untilReady(15_000);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(cache, 'no-store');
  assert.equal(body.status, 'ready');
  const expected: string[] = [ReadinessCheck.database, ReadinessCheck.storage];
  if (onPostgres) expected.push(ReadinessCheck.queue);
  expected.push(ReadinessCheck.chromium, ReadinessCheck.ffmpeg);
  assert.deepEqual(
    body.checks.map((check) => check.name),
    expected,
  );
  for (const check of body.checks) assert.ok(Number.isInteger(check.ms) && check.ms >= 0, JSON.stringify(check));
});

test('readiness is off while the storage fails, back on when it answers again, within seconds', async () => {
  const stop = () => (proxies.bucket ? proxies.bucket.intercept(() => 'cut-before') : (failing = true));
  const start = () => (proxies.bucket ? proxies.bucket.intercept(undefined) : (failing = false));
  stop();
  proxies.bucket?.cut();
  try {
    const started = Date.now();
    const down = await ready();
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'not_ready');
    assert.deepEqual(failed(down.body), [ReadinessCheck.storage]);
    assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);
  } finally {
    start();
  }
  const back = await untilReady(10_000);
  assert.deepEqual(failed(back.body), []);
});

test(
  'readiness is off while PostgreSQL is unreachable, back on when it is',
  { skip: !onPostgres && 'SQLite is a file of the process' },
  async () => {
    proxies.database!.intercept(() => 'cut-before');
    proxies.database!.cut();
    try {
      const started = Date.now();
      const down = await ready();
      assert.equal(down.status, 503);
      assert.ok(failed(down.body).includes(ReadinessCheck.database), JSON.stringify(down.body));
      assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);
      // Why goes to the log only: the answer names the check, never the error or the address.
      assert.ok(!JSON.stringify(down.body).includes('127.0.0.1'));
      assert.ok(logged.some((line) => line.startsWith('readiness check failed') && line.includes('"database"')));
    } finally {
      proxies.database!.intercept(undefined);
    }
    const back = await untilReady(15_000);
    assert.deepEqual(failed(back.body), []);
  },
);

test('readiness is off while FFmpeg cannot be run, and back on when it can', async () => {
  const previous = process.env.FX_FFMPEG;
  process.env.FX_FFMPEG = '/nonexistent/ffmpeg';
  try {
    const down = await ready();
    assert.equal(down.status, 503);
    assert.deepEqual(failed(down.body), [ReadinessCheck.ffmpeg]);
  } finally {
    if (previous === undefined) delete process.env.FX_FFMPEG;
    else process.env.FX_FFMPEG = previous;
  }
  assert.equal((await ready()).status, 200);
});

test(
  'an api process checks no renderer; a worker serves only /healthz and /readyz',
  { skip: !onPostgres && 'the api and worker roles need PostgreSQL' },
  async () => {
    for (const role of [ServiceRole.api, ServiceRole.worker]) {
      const location = await newTestLocation();
      const process = await createService({ ...location, role, render: createFfmpegRenderer() });
      try {
        const { url } = await process.listen(0);
        const { status, body } = await ready(url);
        assert.equal(status, 200, `${role}: ${JSON.stringify(body)}`);
        const names = body.checks.map((check) => check.name);
        assert.equal(names.includes(ReadinessCheck.ffmpeg), role === ServiceRole.worker, `${role}: ${names}`);
        assert.equal((await fetch(`${url}${Route.healthz}`)).status, 200);
        const api = await fetch(`${url}${Route.renders}`);
        assert.equal(api.status, role === ServiceRole.worker ? 404 : 401, role);
      } finally {
        await process.close();
        await removeTestLocation(location);
      }
    }
  },
);

test('the answers hold on the S3 backend too', { skip: !onS3 && 'the S3 stage runs it' }, async () => {
  assert.ok(proxies.bucket, 'the bucket is reached through the proxy');
  assert.equal((await ready()).status, 200);
});
