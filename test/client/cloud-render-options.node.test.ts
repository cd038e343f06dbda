/**
 * cloudRender's options of stills, GIFs, ranges, thumbnails, metadata and dry runs, against the real reference
 * service through the fault proxy: what the wire refuses is refused before anything is zipped or sent (the
 * entry's `data-duration` included), what it accepts is sent as the wire's snake_case fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiKeyCredentials } from '../../src/client/api-key.js';
import { cloudRenderBatch } from '../../src/client/cloud-render-batch.js';
import { cloudRender, type CloudRenderOptions } from '../../src/client/cloud-render.js';
import { isFxError } from '../../src/runtime/errors.js';
import { compositionHtml, TITLE_DECLARATIONS } from '../service/helpers/harness.js';
import { FAST_RETRY, startClientSetup, type ClientSetup } from './helpers/setup.js';

/** A composition of 0.5 s: 15 frames at 30 fps. */
const files = () => [{ path: 'index.html', data: compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.5 }) }];

/** A value `levels` objects deep. */
const nested = (levels: number): unknown => (levels === 0 ? 'deep' : { inner: nested(levels - 1) });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error) => (isFxError(error) ? error.code : `not an FxError: ${error}`),
  );

/** A fetch that keeps every `POST /v3/renders` body it sends. */
function recording() {
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (init?.method === 'POST' && url.pathname === '/v3/renders') bodies.push(JSON.parse(String(init.body)));
    return globalThis.fetch(input, init);
  };
  return { bodies, fetch };
}

describe('cloudRender: stills, GIFs, ranges, metadata, dry runs', () => {
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

  const refusals: [string, Partial<CloudRenderOptions>, string][] = [
    ['a format the wire lacks', { format: 'avi' as never }, 'parameter_invalid'],
    ['gif at 4k', { format: 'gif', resolution: '4k' }, 'resolution_format_unsupported'],
    ['png at 4k', { format: 'png', resolution: '4k' }, 'resolution_format_unsupported'],
    ['a gif faster than 30 fps', { format: 'gif', fps: 60 }, 'parameter_invalid'],
    ['time with mp4', { time: 0.2 }, 'parameter_conflict'],
    ['thumbnailTime with a still', { format: 'png', thumbnailTime: 0.2 }, 'parameter_conflict'],
    ['range with a still', { format: 'jpeg', range: { start: 0, end: 0.2 } }, 'parameter_conflict'],
    ['loop with mp4', { loop: false }, 'parameter_conflict'],
    ['a negative time', { format: 'png', time: -1 }, 'parameter_invalid'],
    ['a range that ends before it starts', { range: { start: 0.4, end: 0.1 } }, 'parameter_invalid'],
    ['metadata that is not an object', { metadata: [1] as never }, 'parameter_invalid'],
    ['metadata over 4 KiB', { metadata: { note: 'x'.repeat(4100) } }, 'metadata_too_large'],
    ['metadata 5 levels deep', { metadata: nested(5) as Record<string, unknown> }, 'metadata_too_deep'],
    // From the entry's data-duration (0.5 s), before the upload.
    ['a still at the end', { format: 'png', time: 0.5 }, 'time_outside_duration'],
    ['a thumbnail past the end', { thumbnailTime: 0.9 }, 'time_outside_duration'],
    ['a thumbnail outside the range', { range: { start: 0, end: 0.2 }, thumbnailTime: 0.3 }, 'time_outside_duration'],
    ['a range past the end', { format: 'gif', range: { start: 0.1, end: 0.8 } }, 'range_outside_duration'],
  ];
  for (const [name, bad, code] of refusals) {
    test(`refused before anything is zipped or sent: ${name} → ${code}`, async () => {
      const seen = setup.proxy.seen.length;
      let zipped = false;
      const result = await codeOf(
        cloudRender({ files: files() }, { ...options, ...bad, onProgress: (p) => (zipped ||= p.stage === 'zipping') }),
      );
      assert.equal(result, code);
      assert.equal(zipped, false, 'nothing zipped');
      assert.equal(setup.proxy.seen.length, seen, 'nothing sent');
    });
  }

  test('a GIF of a range, its thumbnail, play-once and metadata: sent as the wire spells them', async () => {
    const { bodies, fetch } = recording();
    await cloudRender(
      { files: files() },
      {
        ...options,
        fetch,
        format: 'gif',
        fps: 10,
        range: { start: 0.1, end: 0.4 },
        thumbnailTime: 0.2,
        loop: false,
        metadata: { order: 'A-17', tags: ['x'] },
        noWait: true,
      },
    );
    assert.equal(bodies.length, 1);
    const { asset_id, ...fields } = bodies[0]!;
    assert.match(String(asset_id), /^ast_/);
    assert.deepEqual(fields, {
      format: 'gif',
      fps: 10,
      range: { start: 0.1, end: 0.4 },
      thumbnail_time: 0.2,
      loop: false,
      metadata: { order: 'A-17', tags: ['x'] },
      composition: 'index.html',
      aspect_ratio: '16:9',
      variables: {},
    });
  });

  test('a still at a time: format and time sent, nothing of a video', async () => {
    const { bodies, fetch } = recording();
    await cloudRender({ files: files() }, { ...options, fetch, format: 'webp', time: 0.25, noWait: true });
    assert.equal(bodies[0]!.format, 'webp');
    assert.equal(bodies[0]!.time, 0.25);
    assert.equal('thumbnail_time' in bodies[0]! || 'range' in bodies[0]! || 'loop' in bodies[0]!, false);
  });

  test('dryRun: uploads, submits with dry_run true and resolves with the DryRun; no render, no poll, no download', async () => {
    const { bodies, fetch } = recording();
    const renders = await setup.service.count('renders');
    const seen = setup.proxy.seen.length;
    const { dryRun, assetId, warnings } = await cloudRender(
      { files: files() },
      { ...options, fetch, format: 'png', time: 0.25, dryRun: true },
    );
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0]!.dry_run, true);
    assert.match(String(assetId), /^ast_/);
    assert.deepEqual(warnings, []);
    assert.equal(dryRun.dry_run, true);
    assert.equal(dryRun.format, 'png');
    // Snapped to the frame grid: 0.25 s at 30 fps is frame 8 (7.5 rounded), 8/30 s.
    assert.deepEqual(
      { frames: dryRun.output?.frames, duration: dryRun.output?.duration, start: dryRun.output?.start },
      { frames: 1, duration: 0, start: 8 / 30 },
    );
    assert.equal(await setup.service.count('renders'), renders, 'no render created');
    const requests = setup.proxy.seen.slice(seen).map((request) => `${request.method} ${request.path.split('?')[0]}`);
    assert.deepEqual(requests, ['POST /v3/assets', 'POST /v3/renders'], 'no poll, no download');
  });

  test('dryRun of an asset: nothing uploaded, the answer typed by dryRunSchema', async () => {
    const { render } = await cloudRender({ files: files() }, { ...options, noWait: true });
    const seen = setup.proxy.seen.length;
    const { dryRun, assetId } = await cloudRender({ assetId: render.asset_id! }, { ...options, dryRun: true });
    assert.equal(assetId, render.asset_id);
    assert.equal(dryRun.format, 'mp4');
    assert.equal(dryRun.fps, 30);
    assert.deepEqual(
      setup.proxy.seen.slice(seen).map((request) => request.method),
      ['POST'],
    );
  });

  test('a downloaded still is typed by its format: image/png', async () => {
    const { render, video } = await cloudRender({ files: files() }, { ...options, format: 'png', time: 0.25 });
    assert.equal(render.format, 'png');
    assert.equal(video?.type, 'image/png');
  });

  test('cloudRenderBatch: metadata filled from each row, each row sent its own; the manifest records them', async () => {
    const { bodies, fetch } = recording();
    const manifest = await cloudRenderBatch({ files: files() }, [{ title: 'One' }, { title: 'Two', speed: 2 }], {
      ...options,
      fetch,
      format: 'jpeg',
      time: 0.1,
      metadata: { customer: '{title}', row: '{index}', speed: '{speed}', note: 'for {title} at {speed}', fixed: 1 },
      variables: { speed: 1 },
      noWait: true,
    });
    const expected = [
      { customer: 'One', row: 0, speed: 1, note: 'for One at 1', fixed: 1 },
      { customer: 'Two', row: 1, speed: 2, note: 'for Two at 2', fixed: 1 },
    ];
    assert.deepEqual(
      bodies.map((body) => body.metadata),
      expected,
    );
    assert.deepEqual(
      manifest.map((row) => row.metadata),
      expected,
    );
    assert.deepEqual(
      manifest.map((row) => [row.request.format, row.request.time]),
      [
        ['jpeg', 0.1],
        ['jpeg', 0.1],
      ],
    );
  });

  test('cloudRenderBatch: a placeholder a row lacks, or a row whose metadata is too large, refuses before the upload', async () => {
    const seen = setup.proxy.seen.length;
    const rows = [{ title: 'One' }, { speed: 2 }];
    assert.equal(
      await codeOf(cloudRenderBatch({ files: files() }, rows, { ...options, metadata: { order: '{order}' } })),
      'batch_metadata_placeholder_invalid',
    );
    assert.equal(
      await codeOf(
        cloudRenderBatch({ files: files() }, [{ title: 'x'.repeat(20) }], {
          ...options,
          metadata: { long: '{title}'.repeat(210) },
        }),
      ),
      'metadata_too_large',
    );
    assert.equal(
      await codeOf(cloudRenderBatch({ files: files() }, rows, { ...options, dryRun: true } as never)),
      'client_option_invalid',
    );
    assert.equal(setup.proxy.seen.length, seen, 'nothing sent');
  });
});
