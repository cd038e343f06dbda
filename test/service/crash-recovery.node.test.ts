import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RenderFunction } from '../../src/render/types.js';
import { createApiKey } from '../../src/service/admin-commands.js';
import { openStores } from '../../src/service/db/open-stores.js';
import { createService } from '../../src/service/service.js';
import { newTestLocation, openTestDb, removeTestLocation, type TestLocation } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import { compositionHtml, jsonInit, waitFor, zipInit, type RenderJson } from './helpers/harness.js';
import { exited, startChild, startReceiver } from './helpers/service-processes.js';
import { projectZip } from './helpers/zip-builder.js';

describe('crash safety', () => {
  let location: TestLocation;
  before(async () => {
    location = await newTestLocation('fx-crash-test-');
  });
  after(() => removeTestLocation(location));

  test('kill -9 mid-render, restart: the render is run again and completes, its webhook delivered', async () => {
    const stores = await openStores(location);
    const { key } = await createApiKey(stores, 'crash');
    await stores.close();
    const receiver = await startReceiver();
    const auth = { authorization: `Bearer ${key}` };
    let { child, url } = await startChild(location);
    try {
      const upload = await fetch(
        `${url}/v3/assets`,
        zipInit(projectZip({ 'index.html': compositionHtml({ duration: 2 }) }), auth),
      );
      const { asset_id } = (await upload.json()) as { asset_id: string };
      const submitted = (await (
        await fetch(
          `${url}/v3/renders`,
          jsonInit({ asset_id, fps: 10, callback_url: receiver.url, callback_id: 'crash-1' }, auth),
        )
      ).json()) as RenderJson;
      const poll = async () =>
        (await (await fetch(`${url}/v3/renders/${submitted.render_id}`, { headers: auth })).json()) as RenderJson & {
          progress: { frames_done: number };
          attempts: number;
        };
      await waitFor(
        async () => {
          const render = await poll();
          return render.status === 'rendering' && render.progress.frames_done > 0 ? render : undefined;
        },
        10_000,
        'the render to be mid-way',
      );

      child.kill('SIGKILL');
      await exited(child);
      const reader = await openTestDb(location);
      assert.deepEqual(await reader.rows('SELECT status FROM renders WHERE id = ?', submitted.render_id), [
        { status: 'rendering' },
      ]);
      await reader.close();
      assert.ok(
        existsSync(join(location.dataDir, 'work', submitted.render_id)),
        'the killed render left its work folder',
      );

      ({ child, url } = await startChild(location));
      const done = await waitFor(
        async () => {
          const render = await poll();
          return render.status === 'completed' || render.status === 'failed' ? render : undefined;
        },
        20_000,
        'the render to finish after the restart',
      );
      assert.equal(done.status, 'completed');
      assert.equal(done.attempts, 2);
      assert.equal((await fetch(String(done.video_url))).status, 200);
      const deliveries = await waitFor(() => (receiver.received.length > 0 ? receiver.received : undefined));
      assert.equal(deliveries.length, 1);
      assert.equal(JSON.parse(deliveries[0]!.body).data.callback_id, 'crash-1');
    } finally {
      child.kill('SIGKILL');
      await exited(child);
      receiver.close();
    }
  });
});

describe('recovery in process', () => {
  let location: TestLocation;
  before(async () => {
    location = await newTestLocation('fx-recovery-test-');
  });
  after(() => removeTestLocation(location));

  /** A renderer that only ends when aborted, reporting one frame first. */
  const hanging: RenderFunction = (options) =>
    new Promise((_, reject) => {
      options.onProgress?.({ stage: 'capturing', framesDone: 1, framesTotal: 100 });
      if (options.signal?.aborted) reject(options.signal.reason);
      options.signal?.addEventListener('abort', () => reject(options.signal!.reason), { once: true });
    });

  test('a render interrupted maxAttempts times fails with render_interrupted and sends render.failed', async () => {
    const receiver = await startReceiver();
    const first = await createService({ ...location, render: hanging, allowInsecureCallbacks: true, maxAttempts: 3 });
    const admin = await openStores(location);
    const { accountId } = await createApiKey(admin, 'interrupted');
    await admin.close();
    const { url } = await first.listen(0);
    const { key } = await first.context.apiKeys.create(accountId);
    const auth = { authorization: `Bearer ${key}` };
    const { asset_id } = (await (
      await fetch(`${url}/v3/assets`, zipInit(projectZip({ 'index.html': compositionHtml() }), auth))
    ).json()) as { asset_id: string };
    const { render_id } = (await (
      await fetch(`${url}/v3/renders`, jsonInit({ asset_id, callback_url: receiver.url }, auth))
    ).json()) as RenderJson;
    await waitFor(async () =>
      (await first.context.renders.find(render_id))?.status === 'rendering' ? true : undefined,
    );
    await first.close();
    // Graceful shutdown puts it back in the queue without counting the attempt.
    const writer = await openTestDb(location);
    assert.deepEqual(await writer.rows('SELECT status, attempts FROM renders WHERE id = ?', render_id), [
      { status: 'queued', attempts: 0 },
    ]);
    // As if it had been started and killed three times.
    await writer.run(`UPDATE renders SET status = 'rendering', attempts = 3 WHERE id = ?`, render_id);
    await writer.close();

    const second = await createService({
      ...location,
      render: hanging,
      allowInsecureCallbacks: true,
      maxAttempts: 3,
      webhooks: { pollMs: 50 },
      // On PostgreSQL the render's job is taken up by the queue, not at start: poll it soon.
      queue: { pollingIntervalSeconds: 0.5, leaseSeconds: 2 },
    });
    try {
      const render = await waitFor(async () => {
        const found = await second.context.renders.find(render_id);
        return found?.status === 'failed' ? found : undefined;
      });
      assert.equal(render?.failure?.code, 'render_interrupted');
      const [delivery] = await waitFor(() => (receiver.received.length > 0 ? receiver.received : undefined));
      const event = JSON.parse(delivery!.body) as { type: string; data: { failure: { code: string } } };
      assert.deepEqual([event.type, event.data.failure.code], ['render.failed', 'render_interrupted']);
    } finally {
      await second.close();
      receiver.close();
    }
  });

  test('webhook retries are persisted: a restart continues the schedule with the same webhook-id', async () => {
    const receiver = await startReceiver([500]);
    const settings = {
      ...location,
      render: createFfmpegRenderer(),
      allowInsecureCallbacks: true,
      webhooks: { pollMs: 50, retryBaseMs: 60_000 },
    };
    const first = await createService(settings);
    const admin = await openStores(location);
    const { key } = await createApiKey(admin, 'webhook-restart');
    await admin.close();
    const { url } = await first.listen(0);
    const auth = { authorization: `Bearer ${key}` };
    const { asset_id } = (await (
      await fetch(`${url}/v3/assets`, zipInit(projectZip({ 'index.html': compositionHtml() }), auth))
    ).json()) as { asset_id: string };
    const { render_id } = (await (
      await fetch(`${url}/v3/renders`, jsonInit({ asset_id, fps: 2, callback_url: receiver.url }, auth))
    ).json()) as RenderJson;
    await waitFor(() => (receiver.received.length === 1 ? true : undefined));
    await first.close();

    // The next attempt was scheduled a minute out; make it due now, as if the minute had passed while down.
    const writer = await openTestDb(location);
    assert.deepEqual(
      await writer.rows('SELECT state, attempts, last_status FROM webhook_deliveries WHERE render_id = ?', render_id),
      [{ state: 'pending', attempts: 1, last_status: 500 }],
    );
    await writer.run('UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE render_id = ?', render_id);
    await writer.close();

    const second = await createService(settings);
    try {
      await waitFor(() => (receiver.received.length === 2 ? true : undefined));
      assert.deepEqual(
        receiver.received.map((delivery) => delivery.answered),
        [500, 200],
      );
      assert.equal(receiver.received[0]!.id, receiver.received[1]!.id);
    } finally {
      await second.close();
      receiver.close();
    }
  });
});
