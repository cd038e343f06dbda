// The client through a fault-injecting proxy in front of the real service: lost answers, 401s, 429, 503 bursts,
// expired links and aborts. Each test asserts what the service ended up with, not only what the client said.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Credentials } from '../../src/client/credentials.js';
import { FxApiError } from '../../src/client/errors.js';
import type { FxClient } from '../../src/client/fx-client.js';
import type { Render } from '../../src/wire/responses.js';
import { PROJECT_ZIP, startClientSetup, type ClientSetup } from './helpers/setup.js';

const errorJson = (code: string, message = code) => JSON.stringify({ error: { code, message, param: null } });
const JSON_HEADERS = { 'content-type': 'application/json' };
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected a rejection'),
    (error: unknown) => {
      assert.ok(error instanceof FxApiError, `not an FxApiError: ${error}`);
      return error;
    },
  );

/** Credentials that count refreshes: `authorization()` gives `current`; a refresh of the current value replaces it once (single-flight). */
function countingCredentials(first: string, next: string, options: { refreshes?: boolean } = {}) {
  let current = first;
  let inflight: Promise<boolean> | undefined;
  const calls: (string | undefined)[] = [];
  let refreshes = 0;
  const credentials: Credentials = {
    authorization: async () => current,
    refresh: async (rejected) => {
      calls.push(rejected);
      if (options.refreshes === false) return false;
      if (rejected !== current) return true;
      inflight ??= (async () => {
        refreshes++;
        await new Promise((resolve) => setTimeout(resolve, 30));
        current = next;
        inflight = undefined;
        return true;
      })();
      return inflight;
    },
  };
  return { credentials, calls, refreshes: () => refreshes };
}

describe('client under faults', () => {
  let setup: ClientSetup;
  let client: FxClient;
  let bearer: string;
  before(async () => {
    setup = await startClientSetup();
    client = setup.client();
    bearer = `Bearer ${setup.service.key}`;
  });
  after(() => setup.close());

  const assetCount = () => setup.service.count('assets');
  const renderCount = () => setup.service.count('renders');

  for (const kind of ['drop-after-response', 'drop-after-body'] as const) {
    test(`an upload whose connection is cut (${kind}) is retried with the same key: one asset`, async () => {
      const before_ = await assetCount();
      setup.proxy.add({ method: 'POST', path: /^\/v3\/assets/, action: { kind } });
      const asset = await client.uploadAsset(PROJECT_ZIP);
      const posts = setup.proxy.matching('POST', /^\/v3\/assets/);
      const attempts = posts.slice(posts.findLastIndex((request) => request.fault === kind));
      assert.ok(attempts.length >= 2, 'the cut request was retried');
      const keys = new Set(attempts.map((request) => request.headers['idempotency-key']));
      assert.equal(keys.size, 1, 'every attempt carried the same Idempotency-Key');
      assert.match(String([...keys][0]), /^fx-[0-9a-f]{32}$/);
      assert.equal(await assetCount(), before_ + 1);
      assert.deepEqual(await setup.service.rows('SELECT id FROM assets ORDER BY created_at DESC LIMIT 1'), [
        { id: asset.asset_id },
      ]);
    });

    test(`a submit whose connection is cut (${kind}) is retried with the same key: one render`, async () => {
      const { asset_id } = await client.uploadAsset(PROJECT_ZIP);
      const before_ = await renderCount();
      setup.proxy.add({ method: 'POST', path: /^\/v3\/renders$/, action: { kind } });
      const render = await client.createRender({ asset_id, fps: 1 }, { idempotencyKey: `submit:${kind}` });
      const posts = setup.proxy.matching('POST', /^\/v3\/renders$/);
      assert.ok(posts.filter((r) => r.headers['idempotency-key'] === `submit:${kind}`).length >= 2);
      assert.equal(await renderCount(), before_ + 1);
      assert.deepEqual(await setup.service.rows('SELECT id FROM renders ORDER BY seq DESC LIMIT 1'), [
        { id: render.render_id },
      ]);
    });
  }

  test('an upload whose answer breaks off mid-body is retried with the same key: one asset', async () => {
    const before_ = await assetCount();
    setup.proxy.add({ method: 'POST', path: /^\/v3\/assets/, action: { kind: 'cut-mid-body' } });
    const asset = await client.uploadAsset(PROJECT_ZIP);
    const posts = setup.proxy.matching('POST', /^\/v3\/assets/);
    const attempts = posts.slice(posts.findLastIndex((request) => request.fault === 'cut-mid-body'));
    assert.equal(attempts.length, 2, 'cut once, then answered');
    assert.equal(new Set(attempts.map((request) => request.headers['idempotency-key'])).size, 1);
    assert.equal(await assetCount(), before_ + 1);
    assert.match(asset.asset_id, /^ast_/);
  });

  test('a GET whose answer breaks off mid-body is retried and answers', async () => {
    const { asset_id } = await client.uploadAsset(PROJECT_ZIP);
    const { render_id } = await client.createRender({ asset_id, fps: 1 });
    setup.proxy.add({ method: 'GET', path: /^\/v3\/renders\/[^/]+$/, action: { kind: 'cut-mid-body' } });
    const render = await client.getRender(render_id);
    assert.equal(render.render_id, render_id);
    assert.equal(setup.proxy.matching('GET', new RegExp(`^/v3/renders/${render_id}$`)).length, 2);
  });

  test('a 401 refreshes the credentials once and replays once', async () => {
    const fake = countingCredentials(bearer, bearer);
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/account$/,
      action: { kind: 'respond', status: 401, headers: JSON_HEADERS, body: errorJson('invalid_token') },
    });
    const before_ = setup.proxy.seen.length;
    const account = await setup.client({ credentials: fake.credentials }).getAccount();
    assert.equal(account.account_id, setup.service.accountId);
    assert.deepEqual(fake.calls, [bearer]);
    assert.equal(setup.proxy.seen.length - before_, 2);
  });

  test('a second 401 after the refresh is auth_required, with no third request', async () => {
    const fake = countingCredentials(bearer, bearer);
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/account$/,
      times: 2,
      action: {
        kind: 'respond',
        status: 401,
        headers: JSON_HEADERS,
        body: errorJson('invalid_token', 'the token expired'),
      },
    });
    const before_ = setup.proxy.seen.length;
    const error = await rejection(setup.client({ credentials: fake.credentials }).getAccount());
    assert.equal(error.code, 'auth_required');
    assert.equal(error.status, 401);
    assert.match(error.message, /invalid_token: the token expired/);
    assert.equal(fake.calls.length, 1);
    assert.equal(setup.proxy.seen.length - before_, 2);
  });

  test('an API key that the service refuses is auth_required after one request (nothing to refresh)', async () => {
    const before_ = setup.proxy.seen.length;
    const { apiKeyCredentials } = await import('../../src/client/api-key.js');
    const error = await rejection(setup.client({ credentials: apiKeyCredentials('fx_live_unknown') }).getAccount());
    assert.equal(error.code, 'auth_required');
    assert.equal(setup.proxy.seen.length - before_, 1);
  });

  test('5 concurrent 401s: each call asks for a refresh with the rejected credential, one refresh happens, all succeed', async () => {
    const fake = countingCredentials('Bearer fx_live_stale', bearer);
    const stale = setup.client({ credentials: fake.credentials });
    const accounts = await Promise.all(Array.from({ length: 5 }, () => stale.getAccount()));
    assert.ok(accounts.every((account) => account.account_id === setup.service.accountId));
    assert.deepEqual(fake.calls, Array(5).fill('Bearer fx_live_stale'));
    assert.equal(fake.refreshes(), 1);
  });

  test('429 with Retry-After (seconds) is retried no sooner than asked', async () => {
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/account$/,
      action: {
        kind: 'respond',
        status: 429,
        headers: { ...JSON_HEADERS, 'retry-after': '1' },
        body: errorJson('rate_limited'),
      },
    });
    await client.getAccount();
    const [limited, retried] = setup.proxy.matching('GET', /^\/v3\/account$/).slice(-2);
    assert.equal(limited!.fault, 'respond');
    assert.ok(retried!.at - limited!.at >= 990, `retried after ${retried!.at - limited!.at} ms`);
  });

  test('429 with Retry-After as an HTTP date is honoured too', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/account$/,
      action: { kind: 'respond', status: 429, headers: { 'retry-after': date }, body: 'slow down' },
    });
    await client.getAccount();
    const [limited, retried] = setup.proxy.matching('GET', /^\/v3\/account$/).slice(-2);
    assert.ok(retried!.at - limited!.at >= 900, `retried after ${retried!.at - limited!.at} ms`);
  });

  test('a burst of 503s is ridden out; a longer one ends in a retryable error once the attempts are spent', async () => {
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/renders\?/,
      times: 3,
      action: { kind: 'respond', status: 503, body: '<html>busy</html>', headers: { 'content-type': 'text/html' } },
    });
    await client.listRenders({ limit: 1 });
    assert.deepEqual(
      setup.proxy
        .matching('GET', /^\/v3\/renders\?/)
        .slice(-4)
        .map((r) => r.fault),
      ['respond', 'respond', 'respond', undefined],
    );

    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/renders\?/,
      times: 10,
      action: { kind: 'respond', status: 503, body: '<html>busy</html>', headers: { 'content-type': 'text/html' } },
    });
    const before_ = setup.proxy.seen.length;
    const error = await rejection(
      setup.client({ retry: { baseDelayMs: 10, maxAttempts: 3 } }).listRenders({ limit: 1 }),
    );
    assert.equal(error.code, 'http_error');
    assert.equal(error.status, 503);
    assert.equal(error.retryable, true);
    assert.equal(setup.proxy.seen.length - before_, 3);
  });

  test('a Retry-After beyond the time budget is not waited for', async () => {
    setup.proxy.add({
      method: 'GET',
      path: /^\/v3\/account$/,
      action: {
        kind: 'respond',
        status: 503,
        headers: { ...JSON_HEADERS, 'retry-after': '3600' },
        body: errorJson('internal_error'),
      },
    });
    const started = Date.now();
    const error = await rejection(client.getAccount());
    assert.equal(error.code, 'internal_error');
    assert.ok(Date.now() - started < 1000);
  });

  describe('downloads and waits', () => {
    let done: Render;
    before(async () => {
      const { asset_id } = await client.uploadAsset(PROJECT_ZIP);
      done = await client.waitForRender((await client.createRender({ asset_id, fps: 4 })).render_id, {
        pollInterval: 50,
      });
      assert.equal(done.status, 'completed');
    });
    const gets = () => setup.proxy.matching('GET', new RegExp(`^/v3/renders/${done.render_id}$`)).length;

    test('an expired download link gets one fresh record and the download succeeds', async () => {
      setup.proxy.add({
        method: 'GET',
        path: /^\/v3\/files\//,
        action: { kind: 'respond', status: 403, headers: JSON_HEADERS, body: errorJson('signed_url_expired') },
      });
      const before_ = gets();
      const video = await client.downloadRender(done);
      assert.equal(gets() - before_, 1);
      assert.ok(video.body.size > 0);
      assert.notEqual(video.render, done);
    });

    test('a link that expires twice fails with signed_url_expired after exactly one re-get', async () => {
      setup.proxy.add({
        method: 'GET',
        path: /^\/v3\/files\//,
        times: 2,
        action: { kind: 'respond', status: 403, headers: JSON_HEADERS, body: errorJson('signed_url_expired') },
      });
      const before_ = gets();
      const error = await rejection(client.downloadRender(done));
      assert.equal(error.code, 'signed_url_expired');
      assert.equal(error.status, 403);
      assert.equal(gets() - before_, 1);
    });

    test('aborting a wait stops polling at once: no further request', async () => {
      const rendering = JSON.stringify({
        ...done,
        status: 'rendering',
        video_url: null,
        thumbnail_url: null,
        expires_at: null,
      });
      const path = new RegExp(`^/v3/renders/${done.render_id}$`);
      setup.proxy.add({
        method: 'GET',
        path,
        times: 1000,
        action: { kind: 'respond', status: 200, headers: JSON_HEADERS, body: rendering },
      });
      const controller = new AbortController();
      const progress: string[] = [];
      const waiting = client.waitForRender(done.render_id, {
        pollInterval: 100,
        signal: controller.signal,
        onProgress: (render) => progress.push(render.status),
      });
      await new Promise((resolve) => setTimeout(resolve, 250));
      controller.abort();
      const error = await rejection(waiting);
      assert.equal(error.code, 'aborted');
      assert.ok(progress.length >= 2 && progress.every((status) => status === 'rendering'));
      const polled = gets();
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(gets(), polled);
    });

    test('a wait that reaches maxWait is a timeout saying the render may still finish', async () => {
      const error = await rejection(client.waitForRender(done.render_id, { pollInterval: 50, maxWait: 120 }));
      assert.equal(error.code, 'timeout');
      assert.match(error.message, /may still finish/);
    });

    test('aborting a download mid-body rejects the read with aborted and sends nothing more', async () => {
      setup.proxy.add({
        method: 'GET',
        path: /^\/v3\/files\//,
        action: { kind: 'trickle', chunkBytes: 256, intervalMs: 40 },
      });
      const controller = new AbortController();
      const loaded: number[] = [];
      const file = await client.downloadRenderStream(done, {
        signal: controller.signal,
        onProgress: (progress) => loaded.push(progress.loaded),
      });
      const reader = file.body.getReader();
      await reader.read();
      controller.abort();
      const error = await reader.read().then(
        () => assert.fail('the read went on'),
        (error: unknown) => error as FxApiError,
      );
      assert.equal(error.code, 'aborted');
      assert.ok(loaded.at(-1)! < file.size!);
      const seen = setup.proxy.seen.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(setup.proxy.seen.length, seen);
    });
  });
});
