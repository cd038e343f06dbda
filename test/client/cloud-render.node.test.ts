/** cloudRender end to end against the real reference service (FFmpeg test renderer), through the fault proxy. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiKeyCredentials } from '../../src/client/api-key.js';
import { cloudRenderBatch } from '../../src/client/cloud-render-batch.js';
import { cloudRender, type CloudRenderOptions } from '../../src/client/cloud-render.js';
import type { FxApiError } from '../../src/client/errors.js';
import type { CloudRenderProgress } from '../../src/client/progress.js';
import { isFxError } from '../../src/runtime/errors.js';
import { probe, tempDir } from '../render/helpers.js';
import { FAIL_MARKER } from '../service/helpers/ffmpeg-renderer.js';
import { compositionHtml, TITLE_DECLARATIONS } from '../service/helpers/harness.js';
import { FAST_RETRY, startClientSetup, type ClientSetup } from './helpers/setup.js';

const files = (html = compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.5 })) => [
  { path: 'index.html', data: html },
  { path: 'styles/site.css', data: 'h1 { color: red }' },
];

async function videoOf(blob: Blob) {
  const dir = await tempDir('fx-cloud-render-');
  const file = join(dir.path, 'video');
  await writeFile(file, new Uint8Array(await blob.arrayBuffer()));
  try {
    const { streams, format } = await probe(file);
    return { video: streams.find((stream) => stream.codec_type === 'video')!, format };
  } finally {
    await dir.cleanup();
  }
}

/** A value `levels` objects deep. */
const nested = (levels: number): unknown => (levels === 0 ? 'deep' : { inner: nested(levels - 1) });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error) => (isFxError(error) ? error.code : `not an FxError: ${error}`),
  );

describe('cloudRender', () => {
  let setup: ClientSetup;
  let options: CloudRenderOptions;
  before(async () => {
    setup = await startClientSetup();
    options = {
      baseUrl: setup.proxy.url,
      credentials: apiKeyCredentials(setup.service.key),
      retry: FAST_RETRY,
      pollInterval: 50,
    };
  });
  after(() => setup.close());

  test('files → zip → upload → submit → wait → download: an mp4 of the composition, every stage reported in order', async () => {
    const seen: CloudRenderProgress[] = [];
    const { render, video, warnings } = await cloudRender(
      { files: files() },
      { ...options, fps: 24, variables: { title: 'Hi' }, onProgress: (p) => seen.push(p) },
    );
    assert.equal(render.status, 'completed');
    assert.deepEqual(render.variables, { title: 'Hi' });
    assert.deepEqual(warnings, []);
    const stages = seen.map((progress) => progress.stage).filter((stage, index, all) => stage !== all[index - 1]);
    assert.deepEqual(stages.slice(0, 3), ['zipping', 'uploading', 'queued']);
    assert.equal(stages.at(-1), 'downloading');
    const uploads = seen
      .filter((progress) => progress.stage === 'uploading')
      .map((progress) => ('bytes' in progress ? progress.bytes : -1));
    assert.ok(
      uploads.length >= 2 && uploads.every((bytes, index) => index === 0 || bytes >= uploads[index - 1]!),
      `upload progress grows: ${uploads}`,
    );
    const decoded = await videoOf(video!);
    assert.equal(decoded.video.codec_name, 'h264');
    assert.equal(Number(decoded.video.nb_read_frames), 12);
    assert.ok(Math.abs(Number(decoded.format.duration) - 0.5) < 0.05);
  });

  test('upload progress never goes back when the upload is retried', async () => {
    setup.proxy.add({ method: 'POST', path: /^\/v3\/assets/, action: { kind: 'drop-after-response' } });
    const seen: number[] = [];
    const { render } = await cloudRender(
      { files: files() },
      { ...options, onProgress: (p) => p.stage === 'uploading' && seen.push(p.bytes) },
    );
    assert.equal(render.status, 'completed');
    assert.equal(setup.proxy.matching('POST', /^\/v3\/assets/).at(-2)?.fault, 'drop-after-response', 'retried');
    assert.ok(
      seen.every((bytes, index) => index === 0 || bytes >= seen[index - 1]!),
      `upload progress grows: ${seen}`,
    );
  });

  for (const [format, codec, alpha] of [
    ['webm', 'vp9', /alpha_mode/],
    ['mov', 'prores', /yuva/],
  ] as const) {
    test(`${format}: ${codec} with alpha`, async () => {
      const { video } = await cloudRender({ files: files() }, { ...options, format });
      const decoded = await videoOf(video!);
      assert.equal(decoded.video.codec_name, codec);
      assert.match(JSON.stringify(decoded.video), alpha);
    });
  }

  test('the aspect ratio comes from the entry; an asset or a URL is 16:9 unless set', async () => {
    const portrait = await cloudRender(
      { files: files(compositionHtml({ width: 1080, height: 1920 })) },
      { ...options, noWait: true },
    );
    assert.equal(portrait.render.aspect_ratio, '9:16');
    const assetId = portrait.render.asset_id!;
    const fromAsset = await cloudRender({ assetId }, { ...options, noWait: true });
    assert.equal(fromAsset.render.aspect_ratio, '16:9');
    const square = await cloudRender({ assetId }, { ...options, aspectRatio: '1:1', download: false });
    assert.equal(square.render.status, 'completed');
    assert.equal(square.render.aspect_ratio, '1:1');
    assert.equal(square.video, undefined);
  });

  test('noWait: resolves with the queued record, without polling or downloading', async () => {
    const before = setup.proxy.seen.length;
    const { render, video } = await cloudRender({ files: files() }, { ...options, noWait: true });
    assert.equal(render.status, 'queued');
    assert.equal(video, undefined);
    assert.deepEqual(
      setup.proxy.seen.slice(before).map((request) => `${request.method} ${request.path.split('?')[0]}`),
      ['POST /v3/assets', 'POST /v3/renders'],
    );
  });

  test('one idempotency key for upload and submit: calling again creates nothing new', async () => {
    const first = await cloudRender({ files: files() }, { ...options, idempotencyKey: 'batch-7:row-1', noWait: true });
    const again = await cloudRender({ files: files() }, { ...options, idempotencyKey: 'batch-7:row-1', noWait: true });
    assert.equal(again.render.render_id, first.render.render_id);
    assert.equal(again.render.asset_id, first.render.asset_id);
  });

  test('variable warnings are returned; errors, and warnings when strict, refuse before any request', async () => {
    const { warnings } = await cloudRender(
      { files: files() },
      { ...options, variables: { subtitle: 'x' }, noWait: true },
    );
    assert.deepEqual(
      warnings.map((found) => found.code),
      ['undeclared'],
    );
    const before = setup.proxy.seen.length;
    assert.equal(
      await codeOf(cloudRender({ files: files() }, { ...options, variables: { speed: 'fast' } })),
      'render_project_invalid',
    );
    assert.equal(
      await codeOf(
        cloudRender({ files: files() }, { ...options, variables: { subtitle: 'x' }, strictVariables: true }),
      ),
      'render_project_invalid',
    );
    assert.equal(setup.proxy.seen.length, before);
  });

  test('bad options are refused with the service codes before anything is zipped or sent', async () => {
    const before = setup.proxy.seen.length;
    const cases: [Partial<CloudRenderOptions>, string][] = [
      [{ fps: 0 }, 'parameter_invalid'],
      [{ fps: 241 }, 'parameter_invalid'],
      [{ fps: 29.97 }, 'parameter_invalid'],
      [{ format: 'avi' as never }, 'parameter_invalid'],
      [{ resolution: '4k', format: 'webm' }, 'resolution_format_unsupported'],
      [{ resolution: '4k', format: 'mov' }, 'resolution_format_unsupported'],
      [{ callbackUrl: 'http://hooks.example/done' }, 'callback_url_insecure'],
      [{ callbackUrl: 'not a url' }, 'parameter_invalid'],
      [{ idempotencyKey: 'spaces are not allowed' }, 'idempotency_key_invalid'],
      [{ baseUrl: 'ftp://x' }, 'client_option_invalid'],
      // The service's bounds on variables, checked here before the project is zipped and uploaded.
      [{ variables: { title: 'x'.repeat(256 * 1024) } }, 'parameter_invalid'],
      [{ variables: { title: nested(20) } }, 'variables_too_deep'],
    ];
    for (const [bad, code] of cases) {
      let zipped = false;
      const result = await codeOf(
        cloudRender({ files: files() }, { ...options, ...bad, onProgress: (p) => (zipped ||= p.stage === 'zipping') }),
      );
      assert.equal(result, code, JSON.stringify(bad));
      assert.equal(zipped, false, `nothing zipped for ${JSON.stringify(bad)}`);
    }
    assert.equal(setup.proxy.seen.length, before);
  });

  test('an entry the service would refuse is refused before anything is zipped or sent', async () => {
    const before = setup.proxy.seen.length;
    const brokenDeclarations = compositionHtml({ variables: TITLE_DECLARATIONS }).replace('},{', '}{');
    const cases: [string, string][] = [
      [brokenDeclarations, 'render_project_invalid'],
      [compositionHtml({ variables: TITLE_DECLARATIONS, duration: 700 }), 'composition_duration_too_long'],
      [compositionHtml({ variables: TITLE_DECLARATIONS, duration: 400 }), 'composition_duration_too_long'],
    ];
    for (const [html, code] of cases) {
      let zipped = false;
      const fps = html.includes('data-duration="400"') ? 120 : 30;
      const result = await codeOf(
        cloudRender({ files: files(html) }, { ...options, fps, onProgress: (p) => (zipped ||= p.stage === 'zipping') }),
      );
      assert.equal(result, code);
      assert.equal(zipped, false);
    }
    assert.equal(setup.proxy.seen.length, before);
  });

  test('files the entry names that the project lacks: project_file_missing before anything is zipped or sent', async () => {
    const before = setup.proxy.seen.length;
    const html = compositionHtml({ duration: 0.5 }).replace(
      '</div></body>',
      '<img src="img/gone.png" alt=""><link rel="stylesheet" href="styles/site.css"><div data-composition-src="parts/p.html"></div></div></body>',
    );
    let zipped = false;
    const refusal = await cloudRender(
      {
        files: [
          ...files(html).map((file) =>
            file.path === 'styles/site.css' ? { ...file, data: 'h1 { background: url(../bg.png) }' } : file,
          ),
          { path: 'parts/p.html', data: '<div data-composition-id="p"><video src="clip.mp4"></video></div>' },
        ],
      },
      { ...options, onProgress: (p) => (zipped ||= p.stage === 'zipping') },
    ).then(
      () => assert.fail('resolved'),
      (error: FxApiError) => error,
    );
    assert.equal(refusal.code, 'project_file_missing');
    assert.equal(refusal.param, 'composition');
    assert.deepEqual(
      refusal.issues?.map((found) => found.path),
      [
        ['index.html', '<img src>', 'img/gone.png'],
        ['styles/site.css', 'url()', 'bg.png'],
        ['parts/p.html', '<video src>', 'parts/clip.mp4'],
      ],
    );
    assert.match(refusal.message, /nothing sent/);
    assert.equal(zipped, false);
    assert.equal(setup.proxy.seen.length, before);
  });

  test('allowMissingFiles: uploaded and rendered, the service told (allow_missing_files in the record)', async () => {
    const html = compositionHtml({ duration: 0.5 }).replace(
      '</div></body>',
      '<img src="img/gone.png" alt=""></div></body>',
    );
    const { render } = await cloudRender(
      { files: files(html) },
      { ...options, allowMissingFiles: true, download: false },
    );
    assert.equal(render.status, 'completed');
    assert.equal(render.allow_missing_files, true);
    const plain = await cloudRender({ files: files() }, { ...options, noWait: true });
    assert.equal(plain.render.allow_missing_files, false);
  });

  test('allowMissingFiles that is not a boolean: parameter_invalid before anything is sent', async () => {
    const before = setup.proxy.seen.length;
    const bad = { ...options, allowMissingFiles: 'yes' as unknown as boolean };
    assert.equal(await codeOf(cloudRender({ files: files() }, bad)), 'parameter_invalid');
    assert.equal(setup.proxy.seen.length, before);
  });

  test('a missing entry is refused before upload', async () => {
    const before = setup.proxy.seen.length;
    assert.equal(
      await codeOf(cloudRender({ files: [{ path: 'other.html', data: '<p>' }] }, options)),
      'asset_entry_missing',
    );
    assert.equal(setup.proxy.seen.length, before);
  });

  test('a failed render rejects with its failure code', async () => {
    const html = compositionHtml({ extra: FAIL_MARKER });
    assert.equal(await codeOf(cloudRender({ files: files(html) }, options)), 'composition_broken');
  });

  for (const stage of ['zipping', 'uploading', 'queued', 'downloading'] as const) {
    test(`an abort while ${stage} rejects with "aborted" and leaves no timer or request running`, async () => {
      const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
      const baseline = timers();
      const controller = new AbortController();
      const rendering = cloudRender(
        { files: files() },
        {
          ...options,
          pollInterval: 60_000,
          signal: controller.signal,
          onProgress: (p) => p.stage === stage && controller.abort(),
        },
      );
      assert.equal(await codeOf(rendering), 'aborted');
      const requests = setup.proxy.seen.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(setup.proxy.seen.length, requests, 'no request after the abort');
      assert.equal(timers(), baseline);
    });
  }
});

describe('cloudRenderBatch', () => {
  let setup: ClientSetup;
  let options: CloudRenderOptions;
  before(async () => {
    setup = await startClientSetup();
    options = {
      baseUrl: setup.proxy.url,
      credentials: apiKeyCredentials(setup.service.key),
      retry: FAST_RETRY,
      pollInterval: 50,
    };
  });
  after(() => setup.close());

  const project = () => ({ files: files(compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.2 })) });

  test('one upload, one render per row merged over the defaults, two at a time, a manifest in row order', async () => {
    const before = setup.proxy.seen.length;
    const ended: number[] = [];
    const manifest = await cloudRenderBatch(project(), 'title,speed\nOne,1\nTwo,2\nThree,3\n', {
      ...options,
      variables: { theme: 'light' },
      concurrency: 2,
      download: false,
      onRow: (row) => ended.push(row.row),
    });
    assert.deepEqual(
      manifest.map((row) => [row.row, row.status, row.variables]),
      [
        [0, 'completed', { theme: 'light', title: 'One', speed: 1 }],
        [1, 'completed', { theme: 'light', title: 'Two', speed: 2 }],
        [2, 'completed', { theme: 'light', title: 'Three', speed: 3 }],
      ],
    );
    assert.deepEqual([...ended].sort(), [0, 1, 2]);
    assert.ok(manifest.every((row) => row.render_id?.startsWith('rnd_') && row.video_url));
    const requests = setup.proxy.seen.slice(before);
    assert.equal(requests.filter((request) => request.path.startsWith('/v3/assets')).length, 1, 'one upload');
    assert.equal(requests.filter((request) => request.method === 'POST' && request.path === '/v3/renders').length, 3);
  });

  test('one bad row refuses the batch before the upload; a failed render fails its row only', async () => {
    const before = setup.proxy.seen.length;
    assert.equal(
      await codeOf(cloudRenderBatch(project(), [{ title: 'ok' }, { speed: 'fast' }], options)),
      'batch_rows_refused',
    );
    assert.equal(setup.proxy.seen.length, before);
    const failing = await cloudRenderBatch({ files: files(compositionHtml({ extra: FAIL_MARKER })) }, [{}, {}], {
      ...options,
      download: false,
    });
    assert.deepEqual(
      failing.map((row) => [row.status, row.error?.code]),
      [
        ['failed', 'composition_broken'],
        ['failed', 'composition_broken'],
      ],
    );
  });

  test('with an idempotency key, repeating the batch creates no new renders', async () => {
    const first = await cloudRenderBatch(project(), [{ title: 'A' }, { title: 'B' }], {
      ...options,
      idempotencyKey: 'campaign-42',
      noWait: true,
    });
    const again = await cloudRenderBatch(project(), [{ title: 'A' }, { title: 'B' }], {
      ...options,
      idempotencyKey: 'campaign-42',
      noWait: true,
    });
    assert.deepEqual(
      again.map((row) => row.render_id),
      first.map((row) => row.render_id),
    );
    assert.notEqual(first[0]!.render_id, first[1]!.render_id);
    assert.equal(
      await codeOf(cloudRenderBatch(project(), [{}], { ...options, idempotencyKey: 'k'.repeat(241) })),
      'idempotency_key_invalid',
    );
    assert.equal(
      await codeOf(cloudRenderBatch(project(), [{}], { ...options, concurrency: 0 })),
      'client_option_invalid',
    );
  });
});
