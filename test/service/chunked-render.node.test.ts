// Chunked renders in the service, on the real renderer (Chromium + FFmpeg): a long enough render is planned into
// chunk jobs that the queue's workers render in parallel and one of them joins. Frame-exact against a single-job
// render at the boundaries, progress summed over the chunks, a failing chunk retried alone, exhausted retries fail
// the render once, a delete stops every chunk. Runs on both databases (npm run test:postgres: pg-boss in-process);
// on PostgreSQL also across two worker processes (child-service.ts, 5 s leases), one of them killed mid-chunk.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { render, renderChunk, type ChunkOptions } from '../../src/render/index.js';
import { FxError } from '../../src/runtime/errors.js';
import { createApiKey } from '../../src/service/admin-commands.js';
import type { ChunkRenderer } from '../../src/service/config.js';
import { openStores } from '../../src/service/db/open-stores.js';
import { CHUNK_ENV } from '../../src/service/jobs/chunk-settings.js';
import { createService } from '../../src/service/service.js';
import { S3BlobStorage } from '../../src/service/storage/blob-storage.s3.js';
import { startS3Server, type TestS3Server } from '../fixtures/s3-server.js';
import { extractFrame, FIXTURES, probe, psnr, tempDir } from '../render/helpers.js';
import { newTestLocation, onPostgres, openTestDb, removeTestLocation, type TestLocation } from './helpers/database.js';
import {
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  waitForFinished,
  zipInit,
  type TestService,
} from './helpers/harness.js';
import { exited, startChild, startReceiver, type ChildService } from './helpers/service-processes.js';
import { projectZip } from './helpers/zip-builder.js';

const FPS = 10;
/** moving-bar: 3 s, a bar moving 10 px a frame, so a lost or repeated frame at a boundary shows. */
const PROJECT_DIR = join(FIXTURES, 'moving-bar');
const FRAMES = 30;
const MAX_ATTEMPTS = 3;

/** How a test wants a chunk of a range to behave, by `from-to`. */
type Fault = 'fail-once' | 'fail-always' | 'hold';

describe('chunked renders in one service process', { timeout: 300_000 }, () => {
  let service: TestService;
  let assetId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  /** `renderChunk` calls by render id and range. */
  const calls = new Map<string, string[]>();
  const joins: string[] = [];
  const faults = new Map<string, Fault>();
  const held: AbortSignal[] = [];

  const renderIdOf = (options: ChunkOptions) => options.outputPath.split('/work/')[1]!.split('/')[0]!;
  const chunkRenderer: ChunkRenderer = {
    renderChunk: async (options) => {
      const id = renderIdOf(options);
      const range = `${options.chunk.from}-${options.chunk.to}`;
      calls.set(id, [...(calls.get(id) ?? []), range]);
      const fault = faults.get(range);
      if (fault === 'fail-once') faults.delete(range);
      if (fault === 'fail-once' || fault === 'fail-always')
        throw new FxError('ffmpeg_failed', `chunk ${range} fails on purpose`);
      if (fault === 'hold') {
        held.push(options.signal!);
        await new Promise((resolve) => options.signal!.addEventListener('abort', resolve, { once: true }));
        throw options.signal!.reason;
      }
      return renderChunk(options);
    },
    joinChunks: async (options) => {
      joins.push(options.outputPath);
      const { joinChunks } = await import('../../src/render/index.js');
      return joinChunks(options);
    },
  };

  before(async () => {
    dir = await tempDir('fx-chunked-service-');
    receiver = await startReceiver();
    service = await startTestService({
      render,
      concurrency: 2,
      maxAttempts: MAX_ATTEMPTS,
      chunks: { workers: 2, minChunkFrames: 10 },
      chunkRenderer,
    });
    assetId = await uploadProject(service, { 'index.html': await readFile(join(PROJECT_DIR, 'index.html'), 'utf8') });
  });
  after(async () => {
    receiver?.close();
    await service?.close();
    await dir?.cleanup();
  });

  const submit = async (callbackId?: string) => {
    const response = await service.api(
      '/v3/renders',
      jsonInit({
        asset_id: assetId,
        fps: FPS,
        quality: 'draft',
        ...(callbackId ? { callback_url: receiver.url, callback_id: callbackId } : {}),
      }),
    );
    assert.equal(response.status, 202, await response.clone().text());
    return ((await response.json()) as { render_id: string }).render_id;
  };
  const chunkRows = (id: string) =>
    service.rows(
      'SELECT idx, status, attempts, worker, file_key FROM render_chunks WHERE render_id = ? ORDER BY idx',
      id,
    );
  const chunkFiles = (id: string) => existsSync(join(service.dataDir, 'blobs', 'renders', id, 'chunks'));
  const deliveriesOf = (callbackId: string) =>
    receiver.received.filter(({ body }) => JSON.parse(body).data.callback_id === callbackId);

  test('a long render is split over two workers, joined once, frame-exact at the boundary; progress sums the chunks', async () => {
    const id = await submit('chunked');
    const seen: number[] = [];
    const finished = await waitFor(
      async () => {
        const record = (await (await service.api(`/v3/renders/${id}`)).json()) as {
          status: string;
          video_url: string;
          progress: { frames_done: number; frames_total: number | null; stage: string };
        };
        if (record.progress.frames_total !== null) {
          assert.equal(record.progress.frames_total, FRAMES);
          seen.push(record.progress.frames_done);
        }
        return record.status === 'completed' || record.status === 'failed' ? record : undefined;
      },
      120_000,
      'the chunked render',
    );
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
      `progress never goes back: ${seen}`,
    );
    assert.equal(seen.at(-1), FRAMES);
    assert.ok(
      seen.some((done) => done > 0 && done < FRAMES),
      `progress in between: ${seen}`,
    );
    // In either order: the queue may hand both chunk jobs out at once (pg-boss does).
    assert.deepEqual([...calls.get(id)!].sort(), ['0-15', '15-30'], 'each chunk rendered once');
    assert.equal(joins.filter((path) => path.includes(id)).length, 1, 'joined once');
    const rows = await chunkRows(id);
    assert.deepEqual(
      rows.map((row) => [row.status, Number(row.attempts)]),
      [
        ['done', 1],
        ['done', 1],
      ],
    );
    await waitFor(() => (chunkFiles(id) ? undefined : true), 10_000, 'the chunk files to go after the join');

    const joined = join(dir.path, 'joined.mp4');
    await writeFile(joined, Buffer.from(await (await fetch(String(finished.video_url))).arrayBuffer()));
    const video = (await probe(joined)).streams.find((stream) => stream.codec_type === 'video')!;
    assert.equal(Number(video.nb_read_frames), FRAMES, 'fps × duration frames, by decoding');
    const single = await render({
      projectDir: PROJECT_DIR,
      composition: 'index.html',
      fps: FPS,
      quality: 'draft',
      format: 'mp4',
      resolution: '1080p',
      aspectRatio: '16:9',
      outputPath: join(dir.path, 'single.mp4'),
    });
    for (const index of [14, 15]) {
      const [ours, theirs] = [join(dir.path, `ours-${index}.png`), join(dir.path, `theirs-${index}.png`)];
      await extractFrame(joined, index, ours);
      await extractFrame(single.videoPath, index, theirs);
      const same = await psnr(ours, theirs);
      assert.ok(same >= 40, `frame ${index} is the single render's: ${same} dB`);
    }
    const shifted = await psnr(join(dir.path, 'ours-15.png'), join(dir.path, 'theirs-14.png'));
    assert.ok(shifted < 30, `frame 15 differs from frame 14: ${shifted} dB`);
    await waitFor(() => (deliveriesOf('chunked').length > 0 ? true : undefined));
    assert.equal(JSON.parse(deliveriesOf('chunked')[0]!.body).type, 'render.completed');
  });

  test('a render shorter than two chunks stays one job', async () => {
    const html = (await readFile(join(PROJECT_DIR, 'index.html'), 'utf8')).replace(
      'data-duration="3"',
      'data-duration="1.5"',
    );
    const shortAsset = await uploadProject(service, { 'index.html': html });
    const response = await service.api('/v3/renders', jsonInit({ asset_id: shortAsset, fps: FPS, quality: 'draft' }));
    const { render_id: id } = (await response.json()) as { render_id: string };
    const finished = await waitForFinished(service, id, 60_000);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    assert.equal((finished.output as { frames: number }).frames, 15);
    assert.equal(calls.get(id), undefined);
    assert.deepEqual(await chunkRows(id), []);
  });

  test('a chunk that fails once is retried alone; the other is not rendered again', async () => {
    faults.set('15-30', 'fail-once');
    const id = await submit();
    const finished = await waitForFinished(service, id, 120_000);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    assert.deepEqual([...calls.get(id)!].sort(), ['0-15', '15-30', '15-30']);
    assert.deepEqual(
      (await chunkRows(id)).map((row) => Number(row.attempts)),
      [1, 2],
    );
    assert.equal(finished.attempts, 1);
  });

  test('a chunk failing every attempt fails the render once, with its code and one webhook; no chunk file is left', async () => {
    faults.set('0-15', 'fail-always');
    const id = await submit('exhausted');
    const finished = await waitForFinished(service, id, 120_000);
    faults.delete('0-15');
    assert.equal(finished.status, 'failed');
    assert.equal((finished.failure as { code: string }).code, 'ffmpeg_failed');
    assert.equal(calls.get(id)!.filter((range) => range === '0-15').length, MAX_ATTEMPTS);
    await waitFor(() => (deliveriesOf('exhausted').length > 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.deepEqual(
      deliveriesOf('exhausted').map(({ body }) => JSON.parse(body).type),
      ['render.failed'],
    );
    assert.equal((await chunkRows(id))[0]!.status, 'failed');
    await waitFor(() => (chunkFiles(id) ? undefined : true), 10_000, 'the chunk files to go');
    assert.equal(joins.filter((path) => path.includes(id)).length, 0);
  });

  test('deleting a render mid-chunk stops its chunks and leaves no chunk file', async () => {
    faults.set('15-30', 'hold');
    const id = await submit();
    await waitFor(() => (held.length > 0 ? true : undefined), 60_000, 'the held chunk to start');
    await waitFor(async () => ((await chunkRows(id)).some((row) => row.status === 'rendering') ? true : undefined));
    assert.equal((await service.api(`/v3/renders/${id}`, { method: 'DELETE' })).status, 200);
    await waitFor(() => (held[0]!.aborted ? true : undefined), 15_000, 'the held chunk to be aborted');
    faults.delete('15-30');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(existsSync(join(service.dataDir, 'blobs', 'renders', id)), false, 'files of the deleted render');
    assert.ok(calls.get(id)!.length <= 2, `no chunk started again: ${calls.get(id)}`);
    assert.equal(joins.filter((path) => path.includes(id)).length, 0);
  });
});

describe(
  'chunked renders across worker processes',
  { skip: onPostgres ? false : 'PostgreSQL only', timeout: 300_000 },
  () => {
    let location: TestLocation;
    let auth: Record<string, string>;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let api: ChildService;
    const workers: ChildService[] = [];
    let assetId: string;

    before(async () => {
      location = await newTestLocation('fx-chunked-processes-');
      const stores = await openStores(location);
      auth = { authorization: `Bearer ${(await createApiKey(stores, 'chunks')).key}` };
      await stores.close();
      receiver = await startReceiver();
      // Read by the child processes only (each test file is a process of its own).
      Object.assign(process.env, { [CHUNK_ENV.workers]: '2', [CHUNK_ENV.minChunkFrames]: '10' });
      api = await startChild(location, 'api');
      for (let i = 0; i < 2; i++) workers.push(await startChild(location, 'worker'));
      const html = await readFile(join(PROJECT_DIR, 'index.html'), 'utf8');
      const upload = await fetch(`${api.url}/v3/assets`, zipInit(projectZip({ 'index.html': html }), auth));
      assetId = ((await upload.json()) as { asset_id: string }).asset_id;
    });
    after(async () => {
      for (const { child } of [api, ...workers].filter(Boolean)) child.kill('SIGKILL');
      await Promise.all([api, ...workers].filter(Boolean).map(({ child }) => exited(child)));
      receiver?.close();
      if (location) await removeTestLocation(location);
    });

    const submit = async (callbackId: string) =>
      (
        (await (
          await fetch(
            `${api.url}/v3/renders`,
            jsonInit(
              { asset_id: assetId, fps: 20, quality: 'draft', callback_url: receiver.url, callback_id: callbackId },
              auth,
            ),
          )
        ).json()) as { render_id: string }
      ).render_id;
    const get = async (id: string) =>
      (await (await fetch(`${api.url}/v3/renders/${id}`, { headers: auth })).json()) as {
        status: string;
        attempts: number;
        video_url: string;
      };
    const finished = (id: string) =>
      waitFor(
        async () => {
          const render = await get(id);
          return render.status === 'completed' || render.status === 'failed' ? render : undefined;
        },
        120_000,
        `render ${id} to finish`,
      );
    const chunkRows = async (id: string) => {
      const db = await openTestDb(location);
      try {
        return await db.rows(
          'SELECT idx, status, attempts, worker, frames_done FROM render_chunks WHERE render_id = ? ORDER BY idx',
          id,
        );
      } finally {
        await db.close();
      }
    };
    const pidOf = (worker: unknown) => Number(String(worker).split(':').at(-1));
    const deliveriesOf = (callbackId: string) =>
      receiver.received.filter(({ body }) => JSON.parse(body).data.callback_id === callbackId);
    const onceDelivered = async (callbackId: string) => {
      await waitFor(() => (deliveriesOf(callbackId).length > 0 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return deliveriesOf(callbackId).length;
    };

    test('both workers render chunks of one render; one of them joins it, once', async () => {
      const id = await submit('spread');
      const render = await finished(id);
      assert.equal(render.status, 'completed', JSON.stringify(render));
      const rows = await chunkRows(id);
      assert.deepEqual(
        rows.map((row) => row.status),
        ['done', 'done'],
      );
      assert.deepEqual(
        rows.map((row) => pidOf(row.worker)).sort(),
        workers.map(({ child }) => child.pid).sort(),
        'each worker rendered a chunk',
      );
      assert.equal(
        workers.flatMap(({ joining }) => joining).filter((joined) => joined === id).length,
        1,
        'joined once',
      );
      const video = join(location.dataDir, 'spread.mp4');
      await writeFile(video, Buffer.from(await (await fetch(render.video_url)).arrayBuffer()));
      const stream = (await probe(video)).streams.find((candidate) => candidate.codec_type === 'video')!;
      assert.equal(Number(stream.nb_read_frames), 60);
      assert.equal(await onceDelivered('spread'), 1);
    });

    test('kill -9 of a worker mid-chunk: its chunk is taken over after the lease, the render completes once', async () => {
      const id = await submit('killed');
      const victim = await waitFor(
        async () => (await chunkRows(id)).find((row) => row.status === 'rendering' && Number(row.frames_done) > 0),
        60_000,
        'a chunk under way',
      );
      const holder = workers.find(({ child }) => child.pid === pidOf(victim.worker))!;
      holder.child.kill('SIGKILL');
      await exited(holder.child);
      workers.splice(workers.indexOf(holder), 1);
      const render = await finished(id);
      assert.equal(render.status, 'completed', JSON.stringify(render));
      assert.equal(render.attempts, 1, 'the render itself was not started again');
      const taken = (await chunkRows(id)).find((row) => row.idx === victim.idx)!;
      assert.equal(Number(taken.attempts), 2);
      assert.equal(pidOf(taken.worker), workers[0]!.child.pid);
      assert.equal(workers[0]!.joining.filter((joined) => joined === id).length, 1);
      assert.equal(await onceDelivered('killed'), 1);
      const chunksDir = join(location.dataDir, 'blobs', 'renders', id, 'chunks');
      await waitFor(() => (existsSync(chunksDir) ? undefined : true), 10_000, 'the chunk files to go');
    });

    test('SIGTERM to a worker mid-chunk hands the chunk back without counting the attempt; the other worker renders it', async () => {
      workers.push(await startChild(location, 'worker'));
      const id = await submit('terminated');
      const victim = await waitFor(
        async () => (await chunkRows(id)).find((row) => row.status === 'rendering' && Number(row.frames_done) > 0),
        60_000,
        'a chunk under way',
      );
      const holder = workers.find(({ child }) => child.pid === pidOf(victim.worker))!;
      holder.child.kill('SIGTERM');
      await exited(holder.child);
      assert.equal(holder.child.exitCode, 0);
      workers.splice(workers.indexOf(holder), 1);
      const render = await finished(id);
      assert.equal(render.status, 'completed', JSON.stringify(render));
      const handed = (await chunkRows(id)).find((row) => row.idx === victim.idx)!;
      assert.deepEqual([Number(handed.attempts), pidOf(handed.worker)], [1, workers[0]!.child.pid]);
      assert.equal(await onceDelivered('terminated'), 1);
    });
    test('kill -9 of the joining worker: the other takes the join over after the lease, the render completes once', async () => {
      for (const { child } of workers.splice(0)) {
        child.kill('SIGKILL');
        await exited(child);
      }
      process.env.FX_TEST_JOIN_DELAY_MS = '4000';
      for (let i = 0; i < 2; i++) workers.push(await startChild(location, 'worker'));
      const id = await submit('joiner-killed');
      const joiner = await waitFor(() => workers.find(({ joining }) => joining.includes(id)), 60_000, 'the join');
      joiner.child.kill('SIGKILL');
      await exited(joiner.child);
      workers.splice(workers.indexOf(joiner), 1);
      const render = await finished(id);
      assert.equal(render.status, 'completed', JSON.stringify(render));
      assert.equal(render.attempts, 1);
      assert.deepEqual(workers[0]!.joining, [id], 'the other worker joined it');
      assert.equal(await onceDelivered('joiner-killed'), 1);
      const video = join(location.dataDir, 'joiner-killed.mp4');
      await writeFile(video, Buffer.from(await (await fetch(render.video_url)).arrayBuffer()));
      const stream = (await probe(video)).streams.find((candidate) => candidate.codec_type === 'video')!;
      assert.equal(Number(stream.nb_read_frames), 60);
    });
  },
);

describe('chunked renders on S3 storage', { timeout: 120_000 }, () => {
  let s3: TestS3Server;
  let storage: S3BlobStorage;
  let service: TestService;
  let dir: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    dir = await tempDir('fx-chunked-s3-');
    s3 = await startS3Server();
    storage = new S3BlobStorage(s3.settings, { cacheDir: join(dir.path, 'cache') });
    service = await startTestService({ render, storage, chunks: { workers: 2, minChunkFrames: 10 } });
  });
  after(async () => {
    await service?.close();
    await s3?.close();
    await dir?.cleanup();
  });

  test('chunk files go through the bucket to the joining worker and are removed after the join', async () => {
    const html = await readFile(join(PROJECT_DIR, 'index.html'), 'utf8');
    const assetId = await uploadProject(service, { 'index.html': html });
    const response = await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: FPS, quality: 'draft' }));
    const { render_id: id } = (await response.json()) as { render_id: string };
    const finished = await waitForFinished(service, id, 90_000);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    const keys = (await service.rows('SELECT file_key FROM render_chunks WHERE render_id = ? ORDER BY idx', id)).map(
      (row) => String(row.file_key),
    );
    assert.deepEqual(keys, [`renders/${id}/chunks/0-1.mp4`, `renders/${id}/chunks/1-1.mp4`]);
    // Removed right after the render completed (a client may see it completed a moment before).
    const gone = async () => (await Promise.all(keys.map((key) => storage.open(key)))).every((file) => !file);
    await waitFor(async () => ((await gone()) ? true : undefined), 10_000, 'the chunk files to leave the bucket');
    const video = join(dir.path, 'joined.mp4');
    await writeFile(video, Buffer.from(await (await fetch(String(finished.video_url))).arrayBuffer()));
    const stream = (await probe(video)).streams.find((candidate) => candidate.codec_type === 'video')!;
    assert.equal(Number(stream.nb_read_frames), FRAMES);
  });
});

describe('a service stopped mid-chunk', { timeout: 180_000 }, () => {
  test('the render completes after a restart, the shutdown not counted as an attempt', async () => {
    const location = await newTestLocation('fx-chunked-restart-');
    const dir = await tempDir('fx-chunked-restart-out-');
    const config = {
      ...location,
      render,
      concurrency: 2,
      chunks: { workers: 2, minChunkFrames: 10 },
      progressIntervalMs: 20,
      queue: { leaseSeconds: 5, pollingIntervalSeconds: 0.5 },
    };
    let service = await createService(config);
    try {
      const account = await service.context.accounts.ensure('restart', Date.now());
      const auth = { authorization: `Bearer ${(await service.context.apiKeys.create(account.id)).key}` };
      const { url } = await service.listen(0);
      const html = await readFile(join(PROJECT_DIR, 'index.html'), 'utf8');
      const upload = await fetch(`${url}/v3/assets`, zipInit(projectZip({ 'index.html': html }), auth));
      const { asset_id } = (await upload.json()) as { asset_id: string };
      const submitted = await fetch(`${url}/v3/renders`, jsonInit({ asset_id, fps: FPS, quality: 'draft' }, auth));
      const { render_id: id } = (await submitted.json()) as { render_id: string };
      const db = await openTestDb(location);
      try {
        await waitFor(
          async () =>
            (await db.rows('SELECT 1 FROM render_chunks WHERE render_id = ? AND frames_done > 0', id)).length > 0
              ? true
              : undefined,
          60_000,
          'a chunk under way',
        );
        await service.close();
        const chunks = await db.rows('SELECT status, attempts FROM render_chunks WHERE render_id = ?', id);
        assert.ok(
          chunks.every((row) => row.status !== 'rendering'),
          `no chunk left rendering: ${JSON.stringify(chunks)}`,
        );
      } finally {
        await db.close();
      }
      service = await createService(config);
      const restarted = await service.listen(0);
      const render = await waitFor(
        async () => {
          const record = (await (await fetch(`${restarted.url}/v3/renders/${id}`, { headers: auth })).json()) as {
            status: string;
            attempts: number;
            video_url: string;
          };
          return record.status === 'completed' || record.status === 'failed' ? record : undefined;
        },
        90_000,
        'the render after the restart',
      );
      assert.equal(render.status, 'completed', JSON.stringify(render));
      assert.equal(render.attempts, 1);
      const video = join(dir.path, 'restarted.mp4');
      await writeFile(video, Buffer.from(await (await fetch(render.video_url)).arrayBuffer()));
      const stream = (await probe(video)).streams.find((candidate) => candidate.codec_type === 'video')!;
      assert.equal(Number(stream.nb_read_frames), FRAMES);
    } finally {
      await service.close();
      await removeTestLocation(location);
      await dir.cleanup();
    }
  });
});
