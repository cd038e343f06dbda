// makeWorkDir / removeWorkDir (src/service/jobs/work-dir.ts): each run of a job works in a folder of its own.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeWorkDir, removeWorkDir } from '../../../src/service/jobs/work-dir.js';
import { tempDir } from '../../render/helpers.js';

describe('makeWorkDir / removeWorkDir', () => {
  test("two runs of one job get folders of their own; the render's folder goes with its last run", async () => {
    const dataDir = await tempDir('fx-work-');
    try {
      // A worker whose lease expired and the job's new holder, running the same chunk at once.
      const [stale, holder] = await Promise.all([
        makeWorkDir(dataDir.path, 'rnd_1', 'chunk-0'),
        makeWorkDir(dataDir.path, 'rnd_1', 'chunk-0'),
      ]);
      assert.notEqual(stale, holder);
      await writeFile(join(holder, 'chunk.mp4'), 'the holder’s file');
      await removeWorkDir(stale);
      assert.equal(await readFile(join(holder, 'chunk.mp4'), 'utf8'), 'the holder’s file');
      await removeWorkDir(holder);
      assert.deepEqual(await readdir(join(dataDir.path, 'work')), []);
    } finally {
      await dataDir.cleanup();
    }
  });

  test("a run starting while another removes the render's folder it emptied gets its folder (CI: a join stayed muxing)", async () => {
    const dataDir = await tempDir('fx-work-');
    try {
      // A chunk's run ends (its folder, then the render's folder go) just as the join's run starts: the removal
      // can land inside the recursive mkdir, which then answers ENOENT.
      // The removal is given 0–6 turns of the event loop of a head start, so it lands at each step of the start.
      for (let round = 0; round < 700; round++) {
        const ending = await makeWorkDir(dataDir.path, 'rnd_1', 'chunk-1');
        const removing = removeWorkDir(ending);
        for (let turn = 0; turn < round % 7; turn++) await new Promise(setImmediate);
        const started = await makeWorkDir(dataDir.path, 'rnd_1', 'join');
        await removing;
        assert.deepEqual(await readdir(started), []);
        await removeWorkDir(started);
      }
      assert.deepEqual(await readdir(join(dataDir.path, 'work')), []);
    } finally {
      await dataDir.cleanup();
    }
  });

  test('removeWorkDir of a run that made no folder does nothing', async () => {
    await removeWorkDir(undefined);
  });
});
