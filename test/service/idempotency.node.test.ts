import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  zipInit,
  type RenderJson,
  type TestService,
} from './helpers/harness.js';
import { DatabaseError } from '../../src/service/db/errors.js';
import { IN_FLIGHT_LIMIT_MS } from '../../src/service/idempotency/idempotency.js';
import { StorageKey } from '../../src/service/storage/keys.js';
import { projectZip } from './helpers/zip-builder.js';

interface ErrorJson {
  error: { code: string; param: string | null };
}

describe('Idempotency-Key', () => {
  let test_: TestService;
  let assetId: string;
  let slowOrigin: Server;
  let slowUrl: string;
  /** Resolved when the slow page is requested: the submit that fetches it is then surely in flight. */
  let pageRequested: () => void = () => {};
  before(async () => {
    test_ = await startTestService();
    assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
    // A page that answers slowly keeps a submit in flight long enough to race a duplicate against it.
    slowOrigin = createServer((_, response) => {
      pageRequested();
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(compositionHtml()), 700);
    });
    await new Promise<void>((resolve) => slowOrigin.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slowOrigin.address() as AddressInfo).port}/slow.html`;
  });
  after(async () => {
    slowOrigin.close();
    await test_.close();
  });

  const submit = (body: unknown, key: string, headers: Record<string, string> = {}) =>
    test_.api('/v3/renders', jsonInit(body, { 'idempotency-key': key, ...headers }));

  test('the same key and body replays the first answer, creating one render', async () => {
    const before_ = await test_.count('renders');
    const first = await submit({ asset_id: assetId, fps: 2 }, 'replay-1');
    const firstBody = (await first.json()) as RenderJson;
    const second = await submit({ asset_id: assetId, fps: 2 }, 'replay-1');
    assert.equal(first.status, 202);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(second.status, 202);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await second.json(), firstBody);
    assert.equal(await test_.count('renders'), before_ + 1);
  });

  test('the same key with a different body → 422 idempotency_key_reused', async () => {
    await submit({ asset_id: assetId, fps: 2 }, 'reuse-1');
    const response = await submit({ asset_id: assetId, fps: 3 }, 'reuse-1');
    assert.equal(response.status, 422);
    assert.deepEqual(((await response.json()) as ErrorJson).error, {
      code: 'idempotency_key_reused',
      message: '"Idempotency-Key" "reuse-1" was already used with a different request',
      param: 'Idempotency-Key',
    });
  });

  test('a duplicate while the first is in flight → 409 idempotency_key_in_progress, then the replay', async () => {
    const before_ = await test_.count('renders');
    const requested = new Promise<void>((resolve) => (pageRequested = resolve));
    const first = submit({ url: slowUrl }, 'race-1');
    await requested;
    const duplicate = await submit({ url: slowUrl }, 'race-1');
    assert.equal(duplicate.status, 409);
    assert.equal(((await duplicate.json()) as ErrorJson).error.code, 'idempotency_key_in_progress');
    const firstResponse = await first;
    assert.equal(firstResponse.status, 202);
    const replay = await submit({ url: slowUrl }, 'race-1');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(
      ((await replay.json()) as RenderJson).render_id,
      ((await firstResponse.json()) as RenderJson).render_id,
    );
    assert.equal(await test_.count('renders'), before_ + 1);
  });

  test('a key left in flight past the limit (its process died) is taken over by the next request', async () => {
    const requested = new Promise<void>((resolve) => (pageRequested = resolve));
    const first = submit({ url: slowUrl }, 'abandoned-1');
    await requested;
    // As if the first request had started before the limit and its process were gone.
    const aged = await test_.rows(
      `UPDATE idempotency_keys SET created_at = ? WHERE key = ? AND state = 'in_flight' RETURNING key`,
      Date.now() - IN_FLIGHT_LIMIT_MS - 1000,
      'abandoned-1',
    );
    assert.equal(aged.length, 1);
    const retry = await submit({ url: slowUrl }, 'abandoned-1');
    assert.equal(retry.status, 202);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal((await first).status, 202);
  });

  test('a refused request is not remembered: a corrected retry with the same key runs', async () => {
    const refused = await submit({ asset_id: assetId, fps: 0 }, 'fix-1');
    assert.equal(refused.status, 400);
    const corrected = await submit({ asset_id: assetId, fps: 1 }, 'fix-1');
    assert.equal(corrected.status, 202);
    assert.equal(corrected.headers.get('idempotent-replayed'), null);
  });

  /**
   * Makes the store's `method` fail `times` times, as a database away for a moment would. `landed`: each call goes
   * through and only its answer is lost (a commit whose reply a cut connection never brought back).
   */
  const failing = (method: 'begin' | 'complete' | 'release', times: number, { landed = false } = {}) => {
    const store = test_.service.context.idempotency as unknown as Record<
      string,
      (...args: unknown[]) => Promise<unknown>
    >;
    const original = store[method]!;
    let left = times;
    store[method] = async (...args) => {
      if (left-- <= 0) return original.apply(store, args);
      if (landed) await original.apply(store, args);
      throw new Error('connection terminated unexpectedly');
    };
    return () => (store[method] = original);
  };

  test('a claim whose commit landed but whose answer was lost is let go: the retry runs at once', async () => {
    const restore = failing('begin', 1, { landed: true });
    try {
      const before_ = await test_.count('renders');
      assert.equal((await submit({ asset_id: assetId, fps: 2 }, 'lost-begin')).status, 500);
      // Not refused as in progress until IN_FLIGHT_LIMIT_MS: the key was released before the 500.
      const retry = await submit({ asset_id: assetId, fps: 2 }, 'lost-begin');
      assert.equal(retry.status, 202);
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      assert.equal(await test_.count('renders'), before_ + 1);
    } finally {
      restore();
    }
  });

  test('a claim that failed lets go of its own hold only: the request in flight keeps the key', async () => {
    const before_ = await test_.count('renders');
    const requested = new Promise<void>((resolve) => (pageRequested = resolve));
    const first = submit({ url: slowUrl }, 'held-1');
    await requested;
    const restore = failing('begin', 1);
    try {
      assert.equal((await submit({ url: slowUrl }, 'held-1')).status, 500);
    } finally {
      restore();
    }
    const duplicate = await submit({ url: slowUrl }, 'held-1');
    assert.equal(duplicate.status, 409, 'the failed claim released the key held by the first request');
    const firstResponse = await first;
    assert.equal(firstResponse.status, 202);
    const replay = await submit({ url: slowUrl }, 'held-1');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(await test_.count('renders'), before_ + 1);
  });

  test('an answer the database could not record at once is recorded later: the retry replays it', async () => {
    const restore = failing('complete', 2);
    try {
      const before_ = await test_.count('renders');
      const first = await submit({ asset_id: assetId, fps: 2 }, 'late-complete');
      assert.equal(first.status, 202, 'the render was stored: the client gets its answer');
      const { render_id } = (await first.json()) as RenderJson;
      const retry = await waitFor(async () => {
        const response = await submit({ asset_id: assetId, fps: 2 }, 'late-complete');
        if (response.status === 409) return undefined;
        return response;
      });
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(((await retry.json()) as RenderJson).render_id, render_id);
      assert.equal(await test_.count('renders'), before_ + 1);
    } finally {
      restore();
    }
  });

  test('a key the database could not release at once is released later: the retry runs again', async () => {
    const restore = failing('release', 2);
    try {
      assert.equal((await submit({ asset_id: assetId, fps: 0 }, 'late-release')).status, 400);
      // In flight until released (409); then the same request runs again, and is refused again.
      const retry = await waitFor(async () => {
        const response = await submit({ asset_id: assetId, fps: 0 }, 'late-release');
        return response.status === 409 ? undefined : response;
      });
      assert.equal(retry.status, 400);
    } finally {
      restore();
    }
  });

  /** Makes `method` of `target` do its work once, then fail as a COMMIT whose outcome the server could not be asked. */
  const landsWithUnknownOutcome = <T extends object>(target: T, method: keyof T & string) => {
    const methods = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = methods[method]!;
    methods[method] = async (...args) => {
      methods[method] = original;
      await original.apply(target, args);
      throw new DatabaseError('commit_outcome_unknown', 'injected: the outcome of the commit is unknown');
    };
    return () => (methods[method] = original);
  };
  const idsOf = async (table: string) => (await test_.rows(`SELECT id FROM ${table}`)).map((row) => row.id as string);

  const zip = projectZip({ 'index.html': compositionHtml() });
  for (const { what, table, inject, send, stored } of [
    {
      what: 'an upload',
      table: 'assets',
      inject: () => landsWithUnknownOutcome(test_.service.context.assets, 'create'),
      send: () => test_.api('/v3/assets', zipInit(zip, { 'idempotency-key': 'unknown-upload' })),
      stored: (id: string) => `${StorageKey.asset(id)}/index.html`,
    },
    {
      what: 'a URL submit',
      table: 'renders',
      inject: () => landsWithUnknownOutcome(test_.service.context.queue, 'submit'),
      send: () => submit({ url: slowUrl }, 'unknown-submit'),
      stored: (id: string) => `${StorageKey.urlProject(id)}/index.html`,
    },
  ]) {
    test(`${what} whose commit has an unknown outcome keeps what it stored and its key: a retry never makes a second`, async () => {
      const restore = inject();
      try {
        const known = new Set(await idsOf(table));
        assert.equal((await send()).status, 500);
        // The record landed; what it names was not deleted from under it.
        const added = (await idsOf(table)).filter((id) => !known.has(id));
        assert.equal(added.length, 1);
        assert.ok(await test_.readStored(stored(added[0]!)), `the files of ${what} that may exist were deleted`);
        // The key stays in flight (until IN_FLIGHT_LIMIT_MS): a retry is told so instead of running again.
        const retry = await send();
        assert.equal(retry.status, 409);
        assert.equal(((await retry.json()) as ErrorJson).error.code, 'idempotency_key_in_progress');
        assert.deepEqual(
          (await idsOf(table)).filter((id) => !known.has(id)),
          added,
        );
      } finally {
        restore();
      }
    });
  }

  test('keys are scoped per endpoint: one value serves the upload and the submit', async () => {
    // One archive, sent twice: zips carry modification times, so two builds may differ byte for byte.
    const zip = projectZip({ 'index.html': compositionHtml() });
    const upload = await test_.api('/v3/assets', zipInit(zip, { 'idempotency-key': 'shared-1' }));
    assert.equal(upload.status, 201);
    const { asset_id } = (await upload.json()) as { asset_id: string };
    const render = await submit({ asset_id, fps: 1 }, 'shared-1');
    assert.equal(render.status, 202);
    const uploadAgain = await test_.api('/v3/assets', zipInit(zip, { 'idempotency-key': 'shared-1' }));
    assert.equal(uploadAgain.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await uploadAgain.json()) as { asset_id: string }).asset_id, asset_id);
  });

  test('keys are scoped per credential: another key does not replay', async () => {
    const other = await test_.newKey('idem-other');
    const mine = (await (await submit({ url: `${slowUrl}?x=1` }, 'cred-1')).json()) as RenderJson;
    const theirs = await submit({ url: `${slowUrl}?x=1` }, 'cred-1', { authorization: `Bearer ${other}` });
    assert.equal(theirs.status, 202);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(((await theirs.json()) as RenderJson).render_id, mine.render_id);
  });

  const BAD_KEYS: [string, string][] = [
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a non-ASCII letter', 'cl\u00e9'],
    ['a quote', 'a"b'],
  ];
  for (const [name, key] of BAD_KEYS) {
    test(`${name} → 400 idempotency_key_invalid, nothing stored`, async () => {
      const before_ = await test_.count('renders');
      const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }, { 'idempotency-key': key }));
      assert.equal(response.status, 400);
      const { error } = (await response.json()) as ErrorJson;
      assert.deepEqual([error.code, error.param], ['idempotency_key_invalid', 'Idempotency-Key']);
      assert.equal(await test_.count('renders'), before_);
    });
  }

  test('an empty key → 400 idempotency_key_invalid', async () => {
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }, { 'idempotency-key': '' }));
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as ErrorJson).error.code, 'idempotency_key_invalid');
  });

  test('the longest valid key (255 of every allowed character class) works', async () => {
    const key = 'Az09_:.-'.repeat(32).slice(0, 255);
    assert.equal((await submit({ asset_id: assetId, fps: 1 }, key)).status, 202);
  });
});
