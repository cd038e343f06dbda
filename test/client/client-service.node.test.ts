// The client against the real reference service (through a proxy that only forwards here): every call, typed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FxApiError } from '../../src/client/errors.js';
import type { FxClient } from '../../src/client/fx-client.js';
import { compositionHtml, TITLE_DECLARATIONS } from '../service/helpers/harness.js';
import { projectZip } from '../service/helpers/zip-builder.js';
import { PROJECT_ZIP, startClientSetup, type ClientSetup } from './helpers/setup.js';

const rejectsWith = async (promise: Promise<unknown>, code: string, param?: string | null) => {
  const error = await promise.then(
    () => assert.fail(`expected ${code}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof FxApiError, `not an FxApiError: ${error}`);
  assert.equal(error.code, code, error.message);
  if (param !== undefined) assert.equal(error.param, param);
  return error;
};

describe('client against the reference service', () => {
  let setup: ClientSetup;
  let client: FxClient;
  before(async () => {
    setup = await startClientSetup();
    client = setup.client();
  });
  after(() => setup.close());

  test('upload, submit, wait, download, list, delete, account', async () => {
    const asset = await client.uploadAsset(PROJECT_ZIP);
    assert.match(asset.asset_id, /^ast_/);
    assert.equal(asset.composition, 'index.html');
    const queued = await client.createRender({ asset_id: asset.asset_id, fps: 4 });
    assert.equal(queued.status, 'queued');
    const seen: string[] = [];
    const done = await client.waitForRender(queued.render_id, {
      pollInterval: 50,
      onProgress: (render) => seen.push(render.status),
    });
    assert.equal(done.status, 'completed');
    assert.equal(seen.at(-1), 'completed');

    const progress: number[] = [];
    const video = await client.downloadRender(done, { onProgress: ({ loaded }) => progress.push(loaded) });
    assert.equal(video.contentType, 'video/mp4');
    assert.equal(video.body.size, video.size);
    assert.equal(progress.at(-1), video.size);
    const head = new Uint8Array(await video.body.slice(4, 8).arrayBuffer());
    assert.equal(new TextDecoder().decode(head), 'ftyp');
    // The signed link went out with no credential (the service would refuse one with 400).
    const fileRequests = setup.proxy.matching('GET', /^\/v3\/files\//);
    assert.ok(fileRequests.length >= 1);
    for (const request of fileRequests) assert.equal(request.headers.authorization, undefined);

    const thumbnail = await client.downloadRenderStream(done.render_id, { file: 'thumbnail' });
    assert.equal(thumbnail.contentType, 'image/jpeg');
    const bytes = new Uint8Array(await new Response(thumbnail.body).arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8]);

    const page = await client.listRenders({ limit: 1 });
    assert.equal(page.data[0]!.render_id, done.render_id);
    assert.equal(await client.deleteRender(done.render_id).then((deleted) => deleted.deleted), true);
    await rejectsWith(client.getRender(done.render_id), 'render_not_found', 'render_id');

    const account = await client.getAccount();
    assert.equal(account.account_id, setup.service.accountId);
    assert.equal(account.credential.kind, 'api_key');
  });

  test('the async iterator walks every page, newest first', async () => {
    const asset = await client.uploadAsset(PROJECT_ZIP);
    const ids: string[] = [];
    for (let index = 0; index < 5; index++)
      ids.push((await client.createRender({ asset_id: asset.asset_id, fps: 1 })).render_id);
    const before = setup.proxy.matching('GET', /^\/v3\/renders\?/).length;
    const listed: string[] = [];
    for await (const render of client.renders({ limit: 2 })) listed.push(render.render_id);
    assert.deepEqual(listed.slice(0, 5), ids.reverse());
    assert.equal(setup.proxy.matching('GET', /^\/v3\/renders\?/).length - before, Math.ceil(listed.length / 2));
  });

  test('render_project_invalid carries the variable issues', async () => {
    const asset = await client.uploadAsset(
      projectZip({ 'index.html': compositionHtml({ variables: TITLE_DECLARATIONS }) }),
    );
    const error = await rejectsWith(
      client.createRender({ asset_id: asset.asset_id, variables: { speed: 'fast' } }),
      'render_project_invalid',
    );
    assert.equal(error.status, 422);
    assert.equal(error.retryable, false);
    assert.deepEqual(
      error.issues.map((issue) => [issue.code, issue.path]),
      [['type-mismatch', ['variables', 'speed']]],
    );
  });

  test("the service's refusals arrive typed: status, code, param", async () => {
    const error = await rejectsWith(client.createRender({ asset_id: 'ast_missing' }), 'asset_not_found', 'asset_id');
    assert.equal(error.status, 404);
    await rejectsWith(client.uploadAsset(new TextEncoder().encode('not a zip')), 'zip_invalid');
  });

  describe('hostile input is refused before any request', () => {
    const cases: [string, (client: FxClient) => Promise<unknown>, string, string | null][] = [
      ['path traversal in an id', (c) => c.getRender('../account'), 'parameter_invalid', 'render_id'],
      ['an encoded slash in an id', (c) => c.deleteRender('rnd_%2F..'), 'parameter_invalid', 'render_id'],
      ['a query in an id', (c) => c.getRender('rnd_x?limit=1'), 'parameter_invalid', 'render_id'],
      ['an empty id', (c) => c.waitForRender(''), 'parameter_invalid', 'render_id'],
      ['a non-string id', (c) => c.getRender(42 as unknown as string), 'parameter_invalid', 'render_id'],
      [
        'an idempotency key with a space',
        (c) => c.uploadAsset(PROJECT_ZIP, { idempotencyKey: 'a b' }),
        'idempotency_key_invalid',
        'Idempotency-Key',
      ],
      [
        'an empty idempotency key',
        (c) => c.createRender({ asset_id: 'ast_x' }, { idempotencyKey: '' }),
        'idempotency_key_invalid',
        'Idempotency-Key',
      ],
      [
        'a 256-character idempotency key',
        (c) => c.createRender({ asset_id: 'ast_x' }, { idempotencyKey: 'k'.repeat(256) }),
        'idempotency_key_invalid',
        'Idempotency-Key',
      ],
      [
        'a header-splitting idempotency key',
        (c) => c.createRender({ asset_id: 'ast_x' }, { idempotencyKey: 'a\r\nx-evil: 1' }),
        'idempotency_key_invalid',
        'Idempotency-Key',
      ],
      ['fps 0', (c) => c.createRender({ asset_id: 'ast_x', fps: 0 }), 'parameter_invalid', 'fps'],
      [
        'an unknown option',
        (c) => c.createRender({ asset_id: 'ast_x', frames: 3 } as never),
        'parameter_unknown',
        'frames',
      ],
      [
        '4k webm',
        (c) => c.createRender({ asset_id: 'ast_x', format: 'webm', resolution: '4k' }),
        'resolution_format_unsupported',
        'resolution',
      ],
      ['neither asset nor url', (c) => c.createRender({ fps: 30 }), 'parameter_missing', 'asset_id'],
      ['a page size of 101', (c) => c.listRenders({ limit: 101 }), 'parameter_invalid', 'limit'],
      ['a zero wait', (c) => c.waitForRender('rnd_x', { pollInterval: -1 }), 'client_option_invalid', 'pollInterval'],
      ['an upload that is not bytes', (c) => c.uploadAsset('PK' as never), 'body_invalid', null],
    ];
    for (const [name, call, code, param] of cases) {
      test(name, async () => {
        const before = setup.proxy.seen.length;
        await rejectsWith(call(client), code, param);
        assert.equal(setup.proxy.seen.length, before, 'a request was sent');
      });
    }
  });
});
