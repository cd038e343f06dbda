import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  TITLE_DECLARATIONS,
  uploadProject,
  type TestService,
} from './helpers/harness.js';

interface ErrorJson {
  error: {
    code: string;
    message: string;
    param: string | null;
    issues?: { code: string; severity: string; path: (string | number)[] }[];
  };
}

const TWO_SECONDS = { composition: 'two-seconds.html' } as const;
/** Stills, GIFs, ranges, thumbnails and metadata (issue 32), refused before anything is stored. */
const OUTPUT_REFUSALS: {
  name: string;
  fields: Record<string, unknown>;
  code: string;
  param: string;
  status?: number;
}[] = [
  { name: 'metadata as an array', fields: { metadata: [] }, code: 'parameter_invalid', param: 'metadata' },
  { name: 'metadata as a string', fields: { metadata: 'order-1' }, code: 'parameter_invalid', param: 'metadata' },
  { name: 'metadata null', fields: { metadata: null }, code: 'parameter_invalid', param: 'metadata' },
  {
    name: 'metadata 5 levels deep',
    fields: { metadata: { a: { b: { c: { d: { e: 1 } } } } } },
    code: 'metadata_too_deep',
    param: 'metadata',
  },
  {
    name: 'metadata above 4096 bytes',
    fields: { metadata: { note: 'x'.repeat(4100) } },
    code: 'metadata_too_large',
    param: 'metadata',
  },
  { name: 'time with mp4', fields: { time: 1 }, code: 'parameter_conflict', param: 'time' },
  { name: 'time with gif', fields: { format: 'gif', time: 1 }, code: 'parameter_conflict', param: 'time' },
  { name: 'loop with mp4', fields: { loop: false }, code: 'parameter_conflict', param: 'loop' },
  { name: 'loop with png', fields: { format: 'png', loop: true }, code: 'parameter_conflict', param: 'loop' },
  {
    name: 'range with png',
    fields: { format: 'png', range: { start: 0, end: 1 } },
    code: 'parameter_conflict',
    param: 'range',
  },
  {
    name: 'thumbnail_time with jpeg',
    fields: { format: 'jpeg', thumbnail_time: 1 },
    code: 'parameter_conflict',
    param: 'thumbnail_time',
  },
  {
    name: 'range start after end',
    fields: { range: { start: 1, end: 0.5 } },
    code: 'parameter_invalid',
    param: 'range',
  },
  { name: 'range start = end', fields: { range: { start: 1, end: 1 } }, code: 'parameter_invalid', param: 'range' },
  {
    name: 'range without a frame at 10 fps',
    fields: { fps: 10, range: { start: 1, end: 1.04 } },
    code: 'parameter_invalid',
    param: 'range',
  },
  {
    name: 'range with another key',
    fields: { range: { start: 0, end: 1, step: 2 } },
    code: 'parameter_invalid',
    param: 'range',
  },
  { name: 'range without end', fields: { range: { start: 0 } }, code: 'parameter_invalid', param: 'range' },
  { name: 'a negative time', fields: { format: 'png', time: -1 }, code: 'parameter_invalid', param: 'time' },
  { name: 'time as a string', fields: { format: 'png', time: '1' }, code: 'parameter_invalid', param: 'time' },
  { name: 'gif at 60 fps', fields: { format: 'gif', fps: 60 }, code: 'parameter_invalid', param: 'fps' },
  {
    name: 'gif at 4k',
    fields: { format: 'gif', resolution: '4k' },
    code: 'resolution_format_unsupported',
    param: 'resolution',
  },
  {
    name: 'png at 4k',
    fields: { format: 'png', resolution: '4k' },
    code: 'resolution_format_unsupported',
    param: 'resolution',
  },
  { name: 'dry_run as a string', fields: { dry_run: 'yes' }, code: 'parameter_invalid', param: 'dry_run' },
  {
    name: 'time at the declared end',
    fields: { ...TWO_SECONDS, format: 'png', time: 2 },
    code: 'time_outside_duration',
    param: 'time',
    status: 422,
  },
  {
    name: 'time past the declared end',
    fields: { ...TWO_SECONDS, format: 'webp', time: 7.5 },
    code: 'time_outside_duration',
    param: 'time',
    status: 422,
  },
  {
    name: 'range past the declared end',
    fields: { ...TWO_SECONDS, range: { start: 1, end: 2.5 } },
    code: 'range_outside_duration',
    param: 'range',
    status: 422,
  },
  {
    name: 'a gif range past the declared end',
    fields: { ...TWO_SECONDS, format: 'gif', range: { start: 3, end: 4 } },
    code: 'range_outside_duration',
    param: 'range',
    status: 422,
  },
  {
    name: 'thumbnail_time outside the range',
    fields: { ...TWO_SECONDS, range: { start: 0.5, end: 1 }, thumbnail_time: 1.5 },
    code: 'time_outside_duration',
    param: 'thumbnail_time',
    status: 422,
  },
  {
    name: 'thumbnail_time before the range',
    fields: { ...TWO_SECONDS, range: { start: 0.5, end: 1 }, thumbnail_time: 0 },
    code: 'time_outside_duration',
    param: 'thumbnail_time',
    status: 422,
  },
  {
    name: 'thumbnail_time past the declared end',
    fields: { ...TWO_SECONDS, thumbnail_time: 2 },
    code: 'time_outside_duration',
    param: 'thumbnail_time',
    status: 422,
  },
];

describe('POST /v3/renders refuses bad bodies with exact codes, storing nothing', () => {
  let test_: TestService;
  let assetId: string;
  /** The stored asset files after the upload: no refusal changes them. */
  let assetEntries: string[];
  before(async () => {
    // A short fetch timeout: the NAT64/6to4 cases below reach the network until the guard refuses them.
    test_ = await startTestService({
      allowInsecureCallbacks: false,
      allowPrivateNetworkUrls: false,
      limits: { jsonBodyBytes: 64 * 1024, variablesBytes: 1024, urlFetchTimeoutMs: 1_000 },
    });
    assetId = await uploadProject(test_, {
      'index.html': compositionHtml({ variables: TITLE_DECLARATIONS }),
      'broken.html': compositionHtml({ variables: [{ id: 'x', type: 'number', label: 'X', default: 'nope' }] }),
      'forever.html': compositionHtml({ duration: 1e308 }),
      'eleven-minutes.html': compositionHtml({ duration: 660 }),
      'five-minutes.html': compositionHtml({ duration: 300 }),
      'two-seconds.html': compositionHtml({ duration: 2 }),
    });
    assetEntries = await test_.storedAssetEntries();
  });
  after(() => test_.close());

  let keys = 0;
  const submit = async (body: unknown, expected: { status: number; code: string; param: string | null }) => {
    // With a key, which a refusal leaves unrecorded (a corrected retry runs).
    const response = await test_.api('/v3/renders', jsonInit(body, { 'idempotency-key': `refused-${++keys}` }));
    const json = (await response.json()) as ErrorJson;
    assert.deepEqual(
      { status: response.status, code: json.error.code, param: json.error.param },
      expected,
      json.error.message,
    );
    assert.equal(await test_.count('renders'), 0);
    assert.equal(await test_.count('idempotency_keys'), 0);
    assert.deepEqual(await test_.storedAssetEntries(), assetEntries);
    return json;
  };

  const BAD_FIELDS: {
    name: string;
    body: () => Record<string, unknown>;
    code: string;
    param: string | null;
    status?: number;
  }[] = [
    { name: 'neither asset_id nor url', body: () => ({ fps: 30 }), code: 'parameter_missing', param: 'asset_id' },
    {
      name: 'both asset_id and url',
      body: () => ({ asset_id: assetId, url: 'https://example.com/' }),
      code: 'parameter_conflict',
      param: 'url',
    },
    {
      name: 'composition with url',
      body: () => ({ url: 'https://example.com/', composition: 'index.html' }),
      code: 'parameter_conflict',
      param: 'composition',
    },
    {
      name: 'a misspelt option',
      body: () => ({ asset_id: assetId, aspectRatio: '1:1' }),
      code: 'parameter_unknown',
      param: 'aspectRatio',
    },
    { name: 'asset_id not a string', body: () => ({ asset_id: 42 }), code: 'parameter_invalid', param: 'asset_id' },
    { name: 'an empty asset_id', body: () => ({ asset_id: '' }), code: 'parameter_invalid', param: 'asset_id' },
    { name: 'fps 0', body: () => ({ asset_id: assetId, fps: 0 }), code: 'parameter_invalid', param: 'fps' },
    { name: 'fps 241', body: () => ({ asset_id: assetId, fps: 241 }), code: 'parameter_invalid', param: 'fps' },
    { name: 'fps 29.97', body: () => ({ asset_id: assetId, fps: 29.97 }), code: 'parameter_invalid', param: 'fps' },
    {
      name: 'fps as a string',
      body: () => ({ asset_id: assetId, fps: '30' }),
      code: 'parameter_invalid',
      param: 'fps',
    },
    { name: 'fps null', body: () => ({ asset_id: assetId, fps: null }), code: 'parameter_invalid', param: 'fps' },
    {
      name: 'an unknown quality',
      body: () => ({ asset_id: assetId, quality: 'ultra' }),
      code: 'parameter_invalid',
      param: 'quality',
    },
    {
      name: 'an unknown format',
      body: () => ({ asset_id: assetId, format: 'avi' }),
      code: 'parameter_invalid',
      param: 'format',
    },
    {
      name: 'an unknown resolution',
      body: () => ({ asset_id: assetId, resolution: '720p' }),
      code: 'parameter_invalid',
      param: 'resolution',
    },
    {
      name: 'an unknown aspect_ratio',
      body: () => ({ asset_id: assetId, aspect_ratio: '4:3' }),
      code: 'parameter_invalid',
      param: 'aspect_ratio',
    },
    {
      name: 'variables as an array',
      body: () => ({ asset_id: assetId, variables: [] }),
      code: 'parameter_invalid',
      param: 'variables',
    },
    {
      name: 'variables as a string',
      body: () => ({ asset_id: assetId, variables: '{"title":"x"}' }),
      code: 'parameter_invalid',
      param: 'variables',
    },
    {
      name: 'variables too large',
      body: () => ({ asset_id: assetId, variables: { title: 'x'.repeat(2000) } }),
      code: 'parameter_invalid',
      param: 'variables',
    },
    {
      name: 'strict_variables as a string',
      body: () => ({ asset_id: assetId, strict_variables: 'yes' }),
      code: 'parameter_invalid',
      param: 'strict_variables',
    },
    {
      name: 'a composition outside the asset',
      body: () => ({ asset_id: assetId, composition: '../index.html' }),
      code: 'parameter_invalid',
      param: 'composition',
    },
    {
      name: 'an absolute composition',
      body: () => ({ asset_id: assetId, composition: '/etc/passwd' }),
      code: 'parameter_invalid',
      param: 'composition',
    },
    { name: 'a url that does not parse', body: () => ({ url: 'not a url' }), code: 'parameter_invalid', param: 'url' },
    {
      name: 'a javascript: url',
      body: () => ({ url: 'javascript:alert(1)' }),
      code: 'parameter_invalid',
      param: 'url',
    },
    { name: 'a file: url', body: () => ({ url: 'file:///etc/passwd' }), code: 'parameter_invalid', param: 'url' },
    {
      name: 'a url with credentials',
      body: () => ({ url: 'https://user:pw@example.com/' }),
      code: 'parameter_invalid',
      param: 'url',
    },
    {
      name: 'an http callback_url',
      body: () => ({ asset_id: assetId, callback_url: 'http://example.com/hook' }),
      code: 'callback_url_insecure',
      param: 'callback_url',
    },
    {
      name: 'an http loopback callback_url without the dev flag',
      body: () => ({ asset_id: assetId, callback_url: 'http://127.0.0.1:9/hook' }),
      code: 'callback_url_insecure',
      param: 'callback_url',
    },
    {
      name: 'a ftp callback_url',
      body: () => ({ asset_id: assetId, callback_url: 'ftp://example.com/hook' }),
      code: 'parameter_invalid',
      param: 'callback_url',
    },
    {
      name: 'a callback_url that does not parse',
      body: () => ({ asset_id: assetId, callback_url: 'https//nope' }),
      code: 'parameter_invalid',
      param: 'callback_url',
    },
    {
      name: 'a callback_id too long',
      body: () => ({ asset_id: assetId, callback_id: 'x'.repeat(256) }),
      code: 'parameter_invalid',
      param: 'callback_id',
    },
    {
      name: '4k with webm',
      body: () => ({ asset_id: assetId, resolution: '4k', format: 'webm' }),
      code: 'resolution_format_unsupported',
      param: 'resolution',
    },
    {
      name: '4k with mov',
      body: () => ({ asset_id: assetId, resolution: '4k', format: 'mov' }),
      code: 'resolution_format_unsupported',
      param: 'resolution',
    },
    {
      name: 'an unknown asset',
      body: () => ({ asset_id: 'ast_doesnotexist' }),
      code: 'asset_not_found',
      param: 'asset_id',
      status: 404,
    },
    {
      name: 'a composition missing from the asset',
      body: () => ({ asset_id: assetId, composition: 'other.html' }),
      code: 'composition_not_found',
      param: 'composition',
      status: 422,
    },
    {
      name: 'a url on a private address',
      body: () => ({ url: 'http://10.0.0.1/' }),
      code: 'url_not_allowed',
      param: 'url',
    },
    { name: 'a url on loopback', body: () => ({ url: 'http://127.0.0.1:1/' }), code: 'url_not_allowed', param: 'url' },
    {
      name: 'a url on loopback through NAT64',
      body: () => ({ url: 'http://[64:ff9b::7f00:1]:1/' }),
      code: 'url_not_allowed',
      param: 'url',
    },
    {
      name: 'a url on a private address through 6to4',
      body: () => ({ url: 'http://[2002:a00:1::1]:1/' }),
      code: 'url_not_allowed',
      param: 'url',
    },
    {
      name: 'a url on loopback as IPv4-compatible IPv6',
      body: () => ({ url: 'http://[::127.0.0.1]:1/' }),
      code: 'url_not_allowed',
      param: 'url',
    },
    {
      name: 'a composition lasting 1e308 seconds',
      body: () => ({ asset_id: assetId, composition: 'forever.html' }),
      code: 'composition_duration_too_long',
      param: 'composition',
      status: 422,
    },
    {
      name: 'a composition longer than 600 seconds',
      body: () => ({ asset_id: assetId, composition: 'eleven-minutes.html', fps: 1 }),
      code: 'composition_duration_too_long',
      param: 'composition',
      status: 422,
    },
    {
      name: 'more frames than allowed (300 s at 240 fps)',
      body: () => ({ asset_id: assetId, composition: 'five-minutes.html', fps: 240 }),
      code: 'composition_duration_too_long',
      param: 'composition',
      status: 422,
    },
    ...OUTPUT_REFUSALS.map((bad) => ({ ...bad, body: () => ({ asset_id: assetId, ...bad.fields }) })),
    // A dry run is refused exactly as the submit.
    ...OUTPUT_REFUSALS.filter((bad) => bad.param !== 'dry_run').map((bad) => ({
      ...bad,
      name: `${bad.name}, in a dry run`,
      body: () => ({ asset_id: assetId, ...bad.fields, dry_run: true }),
    })),
  ];

  for (const bad of BAD_FIELDS) {
    test(`${bad.name} → ${bad.code}`, async () => {
      await submit(bad.body(), { status: bad.status ?? 400, code: bad.code, param: bad.param });
    });
  }

  test('a body that is not JSON → body_invalid', async () => {
    await submit(undefined, { status: 400, code: 'body_invalid', param: null });
  });

  test('a JSON array body → body_invalid', async () => {
    await submit([], { status: 400, code: 'body_invalid', param: null });
  });

  test('a body above the limit → 413 body_too_large', async () => {
    await submit(
      { asset_id: assetId, callback_id: 'x'.repeat(70_000) },
      { status: 413, code: 'body_too_large', param: null },
    );
  });

  test('a form body → 415 unsupported_media_type', async () => {
    const response = await test_.api('/v3/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'asset_id=x',
    });
    assert.equal(response.status, 415);
    assert.equal(((await response.json()) as ErrorJson).error.code, 'unsupported_media_type');
  });

  test('a type mismatch → 422 render_project_invalid with the issue', async () => {
    const json = await submit(
      { asset_id: assetId, variables: { title: 42 } },
      { status: 422, code: 'render_project_invalid', param: 'variables.title' },
    );
    assert.deepEqual(
      json.error.issues?.map((found) => [found.code, found.path]),
      [['type-mismatch', ['variables', 'title']]],
    );
  });

  test('an enum value out of range → 422 render_project_invalid', async () => {
    const json = await submit(
      { asset_id: assetId, variables: { theme: 'neon' } },
      { status: 422, code: 'render_project_invalid', param: 'variables.theme' },
    );
    assert.equal(json.error.issues?.[0]?.code, 'enum-out-of-range');
  });

  test('every issue is listed, not only the first', async () => {
    const json = await submit(
      { asset_id: assetId, variables: { title: 1, theme: 2, speed: 'fast' } },
      { status: 422, code: 'render_project_invalid', param: 'variables.title' },
    );
    assert.equal(json.error.issues?.length, 3);
  });

  test('an undeclared variable with strict_variables → 422 render_project_invalid', async () => {
    const json = await submit(
      { asset_id: assetId, strict_variables: true, variables: { subtitle: 'x' } },
      { status: 422, code: 'render_project_invalid', param: 'variables.subtitle' },
    );
    assert.deepEqual(
      json.error.issues?.map((found) => [found.code, found.severity]),
      [['undeclared', 'warning']],
    );
  });

  test('an out-of-range number with strict_variables → 422 render_project_invalid', async () => {
    const json = await submit(
      { asset_id: assetId, strict_variables: true, variables: { speed: 11 } },
      { status: 422, code: 'render_project_invalid', param: 'variables.speed' },
    );
    assert.equal(json.error.issues?.[0]?.code, 'out-of-range');
  });

  test('a composition with broken declarations → 422 render_project_invalid on "composition"', async () => {
    const json = await submit(
      { asset_id: assetId, composition: 'broken.html' },
      { status: 422, code: 'render_project_invalid', param: 'composition' },
    );
    assert.equal(json.error.issues?.[0]?.code, 'default_type_mismatch');
  });

  test("another account's asset → 404 asset_not_found", async () => {
    const other = await test_.newKey('other');
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId }, { authorization: `Bearer ${other}` }),
    );
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as ErrorJson).error.code, 'asset_not_found');
    assert.equal(await test_.count('renders'), 0);
  });
});

describe('POST /v3/renders accepts', () => {
  let test_: TestService;
  before(async () => {
    test_ = await startTestService();
  });
  after(() => test_.close());

  test('a minimal body: 202, queued, defaults echoed, ratio detected from the entry', async () => {
    const assetId = await uploadProject(test_, {
      'index.html': compositionHtml({ width: 1080, height: 1920, variables: TITLE_DECLARATIONS }),
    });
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId }));
    assert.equal(response.status, 202);
    const render = (await response.json()) as Record<string, unknown>;
    assert.match(String(render.render_id), /^rnd_/);
    assert.equal(render.status, 'queued');
    assert.deepEqual(
      {
        composition: render.composition,
        fps: render.fps,
        quality: render.quality,
        format: render.format,
        resolution: render.resolution,
        aspect_ratio: render.aspect_ratio,
        variables: render.variables,
        strict_variables: render.strict_variables,
      },
      {
        composition: 'index.html',
        fps: 30,
        quality: 'standard',
        format: 'mp4',
        resolution: '1080p',
        aspect_ratio: '9:16',
        variables: {},
        strict_variables: false,
      },
    );
    assert.deepEqual(render.progress, { stage: 'queued', frames_done: 0, frames_total: null });
  });

  test('an explicit aspect_ratio over the detected one', async () => {
    const assetId = await uploadProject(test_, { 'index.html': compositionHtml({ width: 1000, height: 1000 }) });
    const render = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, aspect_ratio: '16:9' }))
    ).json()) as Record<string, unknown>;
    assert.equal(render.aspect_ratio, '16:9');
    const detected = (await (await test_.api('/v3/renders', jsonInit({ asset_id: assetId }))).json()) as Record<
      string,
      unknown
    >;
    assert.equal(detected.aspect_ratio, '1:1');
  });

  test('an undeclared variable without strict: accepted, the warning kept on the record', async () => {
    const assetId = await uploadProject(test_, { 'index.html': compositionHtml({ variables: TITLE_DECLARATIONS }) });
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, variables: { title: 'Hi', subtitle: 'x' } }),
    );
    assert.equal(response.status, 202);
    const render = (await response.json()) as { warnings: { code: string; path: string[] }[] };
    assert.deepEqual(
      render.warnings.map((found) => [found.code, found.path]),
      [['undeclared', ['variables', 'subtitle']]],
    );
  });

  test('4k with mp4', async () => {
    const assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId, resolution: '4k', format: 'mp4' }));
    assert.equal(response.status, 202);
  });

  test('an http loopback callback_url with allowInsecureCallbacks', async () => {
    const assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, callback_url: 'http://localhost:9/hook', callback_id: 'job-1' }),
    );
    assert.equal(response.status, 202);
    const render = (await response.json()) as Record<string, unknown>;
    assert.deepEqual([render.callback_url, render.callback_id], ['http://localhost:9/hook', 'job-1']);
  });
});
