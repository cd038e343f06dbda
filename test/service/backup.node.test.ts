// `fx service backup` / `restore` of an embedded service (issue 31 §6): backed up while renders run, restored into a
// fresh folder, a service started there has every record, file and key; bad folders and other backends refused.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { refuseUnlessEmbedded } from '../../src/service/backup/backup.js';
import { BackupErrorCode } from '../../src/service/backup/errors.js';
import { createService, type Service } from '../../src/service/service.js';
import { baseEnv, fx } from '../cli/helpers.js';
import { onPostgres } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  waitForFinished,
  type RenderJson,
  type TestService,
} from './helpers/harness.js';
import { onS3 } from './helpers/storage.js';

interface RenderAnswer extends RenderJson {
  video_url?: string;
}

describe(
  'backup and restore of an embedded service',
  { skip: (onPostgres || onS3) && 'the embedded mode is SQLite and local files' },
  () => {
    let original: TestService;
    let folder: string;
    let restored: Service | undefined;
    before(async () => {
      original = await startTestService();
      folder = await mkdtemp(join(tmpdir(), 'fx-backup-test-'));
    });
    after(async () => {
      await restored?.close();
      await original?.close();
      await rm(folder, { recursive: true, force: true });
    });

    const submit = async (assetId: string, service = original) =>
      ((await (await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 10 }))).json()) as RenderJson)
        .render_id;
    const cli = (...args: string[]) => fx(['service', ...args], { env: baseEnv(folder) });

    test('backed up while renders run, restored into a fresh folder: every record, file and key works', async () => {
      const assetId = await uploadProject(original, {
        'index.html': compositionHtml({ duration: 2, width: 320, height: 180 }),
      });
      const done = await submit(assetId);
      const before = (await waitForFinished(original, done)) as RenderAnswer;
      assert.equal(before.status, 'completed');
      const video = new Uint8Array(await (await fetch(before.video_url!)).arrayBuffer());
      const running = [await submit(assetId), await submit(assetId)];
      await waitFor(
        async () => {
          const render = (await (await original.api(`/v3/renders/${running[0]}`)).json()) as RenderJson;
          return render.status === 'rendering' ? render : undefined;
        },
        10_000,
        'a render under way',
      );

      const target = join(folder, 'backup');
      const backup = await cli('backup', target, '--data-dir', original.dataDir);
      assert.equal(backup.code, ExitCode.ok, backup.stderr);
      assert.ok((await readdir(target)).includes('backup.json'));
      const account = await (await original.api('/v3/account')).json();
      await Promise.all(running.map((id) => waitForFinished(original, id)));

      const dataDir = join(folder, 'restored');
      const restore = await cli('restore', target, '--data-dir', dataDir);
      assert.equal(restore.code, ExitCode.ok, restore.stderr);
      restored = await createService({ dataDir, render: createFfmpegRenderer() });
      const { url } = await restored.listen(0);
      const api = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${original.key}` } });

      // The API key (its hash is a row) and the account's webhook secret came along.
      assert.deepEqual(await (await api('/v3/account')).json(), account);
      const listed = (await (await api('/v3/renders?limit=10')).json()) as { data: { render_id: string }[] };
      assert.deepEqual(listed.data.map((render) => render.render_id).sort(), [done, ...running].sort());
      // The finished render's video, by a link the restored service signs (the URL-signing secret is a row too).
      const again = (await (await api(`/v3/renders/${done}`)).json()) as RenderAnswer;
      assert.equal(again.status, 'completed');
      assert.deepEqual(new Uint8Array(await (await fetch(again.video_url!)).arrayBuffer()), video);
      // Those under way at the backup are taken up again by the restored service, as after a crash.
      for (const id of running) {
        const render = await waitFor(
          async () => {
            const answer = (await (await api(`/v3/renders/${id}`)).json()) as RenderAnswer;
            return answer.status === 'completed' || answer.status === 'failed' ? answer : undefined;
          },
          30_000,
          `render ${id} in the restored service`,
        );
        assert.equal(render.status, 'completed', JSON.stringify(render));
      }
    });

    test('a backup into a folder that holds something, a restore into a used data folder or from no backup: refused, nothing written', async () => {
      const used = join(folder, 'used');
      await mkdir(used, { recursive: true });
      await writeFile(join(used, 'keep.txt'), 'mine');
      const into = await cli('backup', used, '--data-dir', original.dataDir);
      assert.equal(into.code, ExitCode.invalid);
      assert.match(into.stderr, new RegExp(`^${BackupErrorCode.targetNotEmpty}: `, 'm'));
      assert.deepEqual(await readdir(used), ['keep.txt']);

      const target = join(folder, 'second');
      assert.equal((await cli('backup', target, '--data-dir', original.dataDir)).code, ExitCode.ok);
      const over = await cli('restore', target, '--data-dir', used);
      assert.equal(over.code, ExitCode.invalid);
      assert.match(over.stderr, new RegExp(`^${BackupErrorCode.targetNotEmpty}: `, 'm'));
      assert.deepEqual(await readdir(used), ['keep.txt']);

      const fromNothing = await cli('restore', used, '--data-dir', join(folder, 'never'));
      assert.equal(fromNothing.code, ExitCode.invalid);
      assert.match(fromNothing.stderr, new RegExp(`^${BackupErrorCode.sourceInvalid}: `, 'm'));
      assert.ok(!(await readdir(folder)).includes('never'));
    });

    test('a service on PostgreSQL or a bucket is refused, pointing to their own tools', async () => {
      const run = await fx(['service', 'backup', join(folder, 'pg')], {
        env: baseEnv(folder, { FX_SERVICE_DATABASE_URL: 'postgres://fx@db/fx' }),
      });
      assert.equal(run.code, ExitCode.invalid);
      assert.match(run.stderr, new RegExp(`^${BackupErrorCode.notEmbedded}: .*PostgreSQL`, 'm'));
    });
  },
);

test('refuseUnlessEmbedded names where the records and files are', () => {
  assert.doesNotThrow(() => refuseUnlessEmbedded({}));
  assert.throws(
    () => refuseUnlessEmbedded({ databaseUrl: 'postgres://db/fx', bucket: 'renders' }),
    /records in PostgreSQL and its files in a bucket/,
  );
});
