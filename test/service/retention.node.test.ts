// Retention (src/service/jobs/retention-sweep.ts): the files of old and deleted renders, and of assets unused for
// the retention, leave storage; the records stay; a render within its time keeps everything. On SQLite + local
// files, and with FX_TEST_DATABASE=postgres FX_TEST_STORAGE=s3 on PostgreSQL + S3.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiKeyCredentials, ClientErrorCode, FxApiError, FxClient } from '../../src/client/index.js';
import { ErrorCode } from '../../src/wire/constants.js';
import { ServiceRole } from '../../src/service/config.js';
import { sweepRetention } from '../../src/service/jobs/retention-sweep.js';
import { createService } from '../../src/service/service.js';
import { StorageKey } from '../../src/service/storage/keys.js';
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
import { onPostgres } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';

const DAY = 86_400_000;
const TTL_SECONDS = 900;

interface Logged {
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
}

async function start(retention: Record<string, number>) {
  const clock = { now: Date.now() };
  const logged: Logged[] = [];
  const test = await startTestService({
    now: () => clock.now,
    signedUrlTtlSeconds: TTL_SECONDS,
    retention: { sweepIntervalMs: 2 ** 31 - 1, ...retention },
    log: (message, details) => logged.push({ message, details }),
  });
  return { test, clock, logged };
}

async function render(test: TestService, assetId: string): Promise<RenderJson> {
  const response = await test.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 10 }));
  assert.equal(response.status, 202, await response.clone().text());
  const { render_id } = (await response.json()) as RenderJson;
  const done = await waitForFinished(test, render_id);
  assert.equal(done.status, 'completed');
  return done;
}

const keysOf = async (test: TestService, prefix: string) => (await test.storedKeys(prefix)).map(({ key }) => key);
const get = async (test: TestService, id: string) =>
  (await test.api(`/v3/renders/${id}`)).json() as Promise<RenderJson>;

describe('retention', () => {
  test('the files of an old render, a deleted one and an unused asset go; records stay; the others keep theirs', async () => {
    const { test: service, clock, logged } = await start({ days: 30, deletedHours: 24 });
    try {
      const oldAsset = await uploadProject(service, { 'index.html': compositionHtml() });
      const old = await render(service, oldAsset);
      const deleted = await render(service, oldAsset);
      assert.equal((await service.api(`/v3/renders/${deleted.render_id}`, { method: 'DELETE' })).status, 200);
      // What DELETE's own removal can leave: a file written after it (a render finishing after its delete).
      await service.service.context.storage.putTree(StorageKey.chunks(deleted.render_id), [
        { path: '0-1.mp4', content: new Uint8Array([1, 2, 3]) },
      ]);
      assert.notDeepEqual(await keysOf(service, `${StorageKey.render(deleted.render_id)}/`), []);

      clock.now += 10 * DAY;
      const recentAsset = await uploadProject(service, { 'index.html': compositionHtml() });
      const recent = await render(service, recentAsset);
      const oldFiles = await keysOf(service, `${StorageKey.render(old.render_id)}/`);
      assert.ok(oldFiles.some((key) => key.endsWith('video.mp4')));

      // 31 days after the old render finished: its files expire (no more links), and stay until its links lapse.
      clock.now += 21 * DAY;
      const first = await sweepRetention(service.service.context);
      assert.equal(first.expired, 1);
      assert.deepEqual(first.renders, [deleted.render_id]);
      // Unused for 31 days, and none of its renders is queued or rendering.
      assert.deepEqual(first.assets, [oldAsset]);
      assert.deepEqual(await keysOf(service, `${StorageKey.asset(oldAsset)}/`), []);
      assert.deepEqual(await keysOf(service, `${StorageKey.render(deleted.render_id)}/`), []);
      const expired = await get(service, old.render_id);
      assert.equal(expired.status, 'completed');
      assert.equal(expired.video_url, null);
      assert.equal(expired.thumbnail_url, null);
      assert.equal(expired.expires_at, null);
      assert.equal(expired.files_expired_at, new Date(clock.now).toISOString());
      const client = new FxClient({ baseUrl: service.url, credentials: apiKeyCredentials(service.key) });
      await assert.rejects(
        client.downloadRender(old.render_id),
        (error: unknown) => error instanceof FxApiError && error.code === ClientErrorCode.renderFilesExpired,
      );
      assert.deepEqual(await keysOf(service, `${StorageKey.render(old.render_id)}/`), oldFiles);

      clock.now += TTL_SECONDS * 1000 + 1;
      const second = await sweepRetention(service.service.context);
      assert.deepEqual(second, { expired: 0, renders: [old.render_id], assets: [] });
      assert.deepEqual(await keysOf(service, `${StorageKey.render(old.render_id)}/`), []);
      assert.deepEqual(await sweepRetention(service.service.context), { expired: 0, renders: [], assets: [] });

      // The records stay: the old render answers without links, the deleted one as before (404).
      assert.equal(await service.count('renders'), 3);
      assert.equal(await service.count('assets'), 2);
      assert.equal((await get(service, old.render_id)).status, 'completed');
      assert.equal((await service.api(`/v3/renders/${deleted.render_id}`)).status, 404);
      const refused = await service.api('/v3/renders', jsonInit({ asset_id: oldAsset, fps: 10 }));
      assert.equal(refused.status, 404);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, ErrorCode.assetNotFound);
      assert.match(body.error.message, /expired/);

      // Within its time: files, links and asset kept; the asset renders again.
      const kept = await get(service, recent.render_id);
      assert.equal(kept.files_expired_at, null);
      const video = await fetch(kept.video_url as string);
      assert.equal(video.status, 200);
      assert.ok((await video.arrayBuffer()).byteLength > 0);
      assert.ok((await keysOf(service, `${StorageKey.asset(recentAsset)}/`)).length > 0);
      await render(service, recentAsset);

      const lines = logged.filter(({ message }) => message.endsWith('files removed'));
      assert.deepEqual(
        lines.map(({ message, details }) => [
          message,
          details?.['renderId'] ?? details?.['assetId'],
          details?.['reason'],
        ]),
        [
          ['render files removed', deleted.render_id, 'deleted'],
          ['asset files removed', oldAsset, undefined],
          ['render files removed', old.render_id, 'expired'],
        ],
      );
      // And counted, by kind and reason.
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      for (const [kind, reason] of [
        ['render', 'deleted'],
        ['render', 'expired'],
        ['asset', 'unused'],
      ])
        assert.match(
          metrics,
          new RegExp(`^fx_retention_removals_total\\{kind="${kind}",reason="${reason}"\\} 1$`, 'm'),
        );
    } finally {
      await service.close();
    }
  });

  test('an asset a queued render still needs is kept past its time, and goes once the render is done', async () => {
    const { test: service, clock } = await start({ days: 1 });
    try {
      const assetId = await uploadProject(service, { 'index.html': compositionHtml() });
      const done = await render(service, assetId);
      clock.now += 2 * DAY;
      // As if its render waited that long in the queue.
      await service.rows('UPDATE renders SET status = ? WHERE id = ? RETURNING id', 'queued', done.render_id);
      assert.deepEqual((await sweepRetention(service.service.context)).assets, []);
      assert.ok((await keysOf(service, `${StorageKey.asset(assetId)}/`)).length > 0);
      await service.rows('UPDATE renders SET status = ? WHERE id = ? RETURNING id', 'completed', done.render_id);
      assert.deepEqual((await sweepRetention(service.service.context)).assets, [assetId]);
    } finally {
      await service.close();
    }
  });

  test('sweeps at once, as several processes would: each render and asset removed by one of them', async () => {
    const { test: service, clock, logged } = await start({ days: 1, deletedHours: 0 });
    // On PostgreSQL a second service (an `api` process, a pool of its own) on the same database and bucket.
    const other = onPostgres
      ? await createService({
          ...service.location,
          role: ServiceRole.api,
          render: createFfmpegRenderer(),
          now: () => clock.now,
          signedUrlTtlSeconds: TTL_SECONDS,
          retention: { days: 1, deletedHours: 0, sweepIntervalMs: 2 ** 31 - 1 },
          log: (message, details) => logged.push({ message, details }),
        })
      : undefined;
    try {
      const assetId = await uploadProject(service, { 'index.html': compositionHtml() });
      const renders = [await render(service, assetId), await render(service, assetId)];
      const contexts = [service.service.context, other?.context ?? service.service.context];
      const sweepAtOnce = () => Promise.all([0, 1, 0, 1].map((index) => sweepRetention(contexts[index]!)));
      clock.now += 2 * DAY;
      const first = await sweepAtOnce();
      assert.equal(
        first.reduce((sum, sweep) => sum + sweep.expired, 0),
        2,
      );
      assert.deepEqual(
        first.flatMap((sweep) => sweep.assets),
        [assetId],
      );
      clock.now += TTL_SECONDS * 1000 + 1;
      const sweeps = await sweepAtOnce();
      assert.deepEqual(sweeps.flatMap((sweep) => sweep.renders).sort(), renders.map((r) => r.render_id).sort());
      assert.equal(logged.filter(({ message }) => message.endsWith('files removed')).length, 3);
      for (const { render_id } of renders)
        assert.deepEqual(await keysOf(service, `${StorageKey.render(render_id)}/`), []);
    } finally {
      await other?.close();
      await service.close();
    }
  });

  test('nothing is removed by default; the service sweeps on its own timer', async () => {
    const { test: service, clock, logged } = await start({ sweepIntervalMs: 50, deletedHours: 0 });
    try {
      const assetId = await uploadProject(service, { 'index.html': compositionHtml() });
      const kept = await render(service, assetId);
      const deleted = await render(service, assetId);
      assert.equal((await service.api(`/v3/renders/${deleted.render_id}`, { method: 'DELETE' })).status, 200);
      clock.now += 3650 * DAY;
      await waitFor(
        () => logged.find(({ details }) => details?.['renderId'] === deleted.render_id),
        10_000,
        'the timer to sweep the deleted render',
      );
      const render_ = await get(service, kept.render_id);
      assert.equal(render_.files_expired_at, null);
      assert.equal(typeof render_.video_url, 'string');
      assert.ok((await keysOf(service, `${StorageKey.render(kept.render_id)}/`)).length > 0);
      assert.ok((await keysOf(service, `${StorageKey.asset(assetId)}/`)).length > 0);
    } finally {
      await service.close();
    }
  });
});
