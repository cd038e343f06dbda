// The chunk records' state machine on both databases (npm run test:postgres for PostgreSQL): every transition is
// conditional, fenced by the chunk's attempt and the render's, and exactly one caller claims the join. Plus the
// chunk settings: malformed values are refused with `chunk_settings_invalid` before anything starts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isFxError } from '../../src/runtime/errors.js';
import { createService } from '../../src/service/service.js';
import { openStores } from '../../src/service/db/open-stores.js';
import type { Stores } from '../../src/service/db/stores.js';
import { newId } from '../../src/service/ids.js';
import {
  CHUNK_ENV,
  chunkSettingsFromEnv,
  ChunkSettingsErrorCode,
  DEFAULT_CHUNKS,
  resolveChunkSettings,
} from '../../src/service/jobs/chunk-settings.js';
import type { StoredChunkResult } from '../../src/service/renders/chunk-store.js';
import { IdPrefix } from '../../src/wire/constants.js';
import { newTestLocation, RENDER_REQUEST, removeTestLocation, type TestLocation } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';

const RESULT = { from: 0, to: 10, frames: 20 } as unknown as StoredChunkResult;
const RANGES = [
  { from: 0, to: 10 },
  { from: 10, to: 20 },
];

describe('chunk store', () => {
  let location: TestLocation;
  let stores: Stores;
  let accountId: string;

  before(async () => {
    location = await newTestLocation('fx-chunk-store-');
    stores = await openStores(location);
    accountId = (await stores.accounts.ensure('chunks', Date.now())).id;
  });
  after(async () => {
    await stores?.close();
    if (location) await removeTestLocation(location);
  });

  /** A render claimed once (`rendering`, attempt 1) with two planned chunks. */
  async function planned(): Promise<string> {
    const id = newId(IdPrefix.render);
    await stores.renders.create({
      id,
      accountId,
      credentialId: 'key_x',
      request: RENDER_REQUEST,
      warnings: [],
      projectKey: 'assets/ast_x',
      createdAt: Date.now(),
    });
    assert.equal((await stores.renders.claim(id, Date.now()))?.attempts, 1);
    await stores.chunks.plan(id, 1, RANGES);
    return id;
  }
  const progressOf = async (id: string) => {
    const render = (await stores.renders.find(id))!;
    return [render.stage, render.framesDone];
  };

  test('a chunk is claimed once; a take-over only with attempts left; done only on its own attempt', async () => {
    const id = await planned();
    const first = await stores.chunks.claim(id, 1, 0, 'w1', false, 3);
    assert.deepEqual([first?.status, first?.attempts, first?.worker], ['rendering', 1, 'w1']);
    assert.equal(await stores.chunks.claim(id, 1, 0, 'w2', false, 3), undefined, 'claimed twice');
    assert.equal(await stores.chunks.claim(id, 2, 1, 'w2', false, 3), undefined, 'a chunk of another plan');
    const taken = await stores.chunks.claim(id, 1, 0, 'w2', true, 3);
    assert.deepEqual([taken?.attempts, taken?.worker], [2, 'w2']);
    assert.equal(await stores.chunks.finish(id, 0, 1, 'k1', RESULT), false, 'the first holder finished');
    assert.equal(await stores.chunks.claim(id, 1, 0, 'w3', true, 2), undefined, 'taken over with no attempt left');
    assert.equal(await stores.chunks.finish(id, 0, 2, 'k2', RESULT), true);
    const [row] = await stores.chunks.list(id);
    assert.deepEqual([row!.status, row!.fileKey, row!.result, row!.framesDone], ['done', 'k2', RESULT, 10]);
    assert.deepEqual(await progressOf(id), ['capturing', 10]);
  });

  test('progress is summed over the chunks and never goes back; a retry gives the attempt back only when asked', async () => {
    const id = await planned();
    const a = (await stores.chunks.claim(id, 1, 0, 'w1', false, 3))!;
    const b = (await stores.chunks.claim(id, 1, 1, 'w2', false, 3))!;
    await stores.chunks.recordProgress(id, 0, a.attempts, 4);
    await stores.chunks.recordProgress(id, 1, b.attempts, 3);
    assert.deepEqual(await progressOf(id), ['capturing', 7]);
    await stores.chunks.recordProgress(id, 0, a.attempts, 99);
    assert.deepEqual(await progressOf(id), ['capturing', 13], 'a chunk counts its own frames at most');
    assert.equal(await stores.chunks.release(id, 1, b.attempts, 'queued'), true);
    assert.equal(await stores.chunks.release(id, 1, b.attempts, 'queued'), false, 'released twice');
    const retried = (await stores.chunks.claim(id, 1, 1, 'w1', false, 3))!;
    assert.equal(retried.attempts, 2);
    await stores.chunks.recordProgress(id, 1, retried.attempts, 1);
    assert.deepEqual(await progressOf(id), ['capturing', 13], 'the retry starting over lowers nothing');
    await stores.chunks.recordProgress(id, 1, 1, 9);
    assert.deepEqual(await progressOf(id), ['capturing', 13], 'progress of a lost attempt');
    assert.equal(await stores.chunks.release(id, 1, 2, 'queued', true), true);
    assert.equal((await stores.chunks.list(id))[1]!.attempts, 1, 'a hand-back gives the attempt back');
  });

  test('the join is claimed once, only when every chunk is done; a take-over claims it again', async () => {
    const id = await planned();
    for (const index of [0, 1]) {
      const row = (await stores.chunks.claim(id, 1, index, 'w', false, 3))!;
      assert.equal(await stores.chunks.claimJoin(id, 1, false), false, 'claimed before the chunks are done');
      assert.equal(await stores.chunks.finish(id, index, row.attempts, `k${index}`, RESULT), true);
    }
    const claims = await Promise.all([1, 2, 3].map(() => stores.chunks.claimJoin(id, 1, false)));
    assert.deepEqual(claims.filter(Boolean).length, 1);
    assert.deepEqual(await progressOf(id), ['muxing', 20]);
    assert.equal(await stores.chunks.claimJoin(id, 2, true), false, 'another attempt');
    assert.equal(await stores.chunks.claimJoin(id, 1, true), true);
  });

  test('nothing moves once the render was deleted or claimed again', async () => {
    const id = await planned();
    const row = (await stores.chunks.claim(id, 1, 0, 'w', false, 3))!;
    assert.ok(await stores.renders.softDelete(accountId, id, Date.now()));
    assert.equal(await stores.chunks.finish(id, 0, row.attempts, 'k', RESULT), false);
    assert.equal(await stores.chunks.claim(id, 1, 1, 'w', false, 3), undefined);
    const other = await planned();
    assert.equal((await stores.renders.claim(other, Date.now(), true))?.attempts, 2, 'taken over');
    assert.equal(
      await stores.chunks.claim(other, 1, 0, 'w', false, 3),
      undefined,
      "a chunk of the render's earlier attempt",
    );
  });
});

describe('chunk settings', () => {
  const refused = (error: unknown) => isFxError(error, ChunkSettingsErrorCode.invalid);

  test('defaults: one worker, every render one job', () => {
    assert.deepEqual(chunkSettingsFromEnv({}), DEFAULT_CHUNKS);
    assert.equal(DEFAULT_CHUNKS.workers, 1);
    assert.deepEqual(
      chunkSettingsFromEnv({
        [CHUNK_ENV.workers]: '4',
        [CHUNK_ENV.minChunkFrames]: '30',
        [CHUNK_ENV.chunksPerWorker]: '',
      }),
      { ...DEFAULT_CHUNKS, workers: 4, minChunkFrames: 30 },
    );
  });

  test('malformed variables are refused, naming the variable', () => {
    for (const value of ['0', '-1', '1.5', '2e3', ' 2', '0x2', 'two', '1025', '99999999999'])
      assert.throws(
        () => chunkSettingsFromEnv({ [CHUNK_ENV.workers]: value }),
        (error) => refused(error) && (error as Error).message.includes(CHUNK_ENV.workers),
        value,
      );
    assert.throws(() => chunkSettingsFromEnv({ [CHUNK_ENV.chunksPerWorker]: '65' }), refused);
    assert.throws(() => chunkSettingsFromEnv({ [CHUNK_ENV.minChunkFrames]: '0' }), refused);
  });

  test('malformed config values are refused, and stop a service before it starts', async () => {
    for (const bad of [{ workers: 0 }, { workers: 2.5 }, { minChunkFrames: -3 }, { chunksPerWorker: Number.NaN }])
      assert.throws(() => resolveChunkSettings(bad), refused, JSON.stringify(bad));
    assert.throws(() => resolveChunkSettings({ workers: '2' as unknown as number }), refused);
    const location = await newTestLocation('fx-chunk-settings-');
    try {
      await assert.rejects(
        createService({ ...location, render: createFfmpegRenderer(), chunks: { workers: 0 } }),
        refused,
      );
    } finally {
      await removeTestLocation(location);
    }
  });
});
