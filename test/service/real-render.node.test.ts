// End to end with the real renderer (Chromium + FFmpeg): upload → render → completed → download → decode.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import { jsonInit, startTestService, uploadProject, waitForFinished, type TestService } from './helpers/harness.js';
import { pixelAt, probe, tempDir } from '../render/helpers.js';

const declarations = JSON.stringify([
  { id: 'title', type: 'string', label: 'Title', default: 'Hello' },
  { id: 'bg', type: 'color', label: 'Background', default: '#ff0000' },
]);

// 320×180 is 16:9; the service renders 1080p 16:9 unless told otherwise, so the frame is scaled to 1920×1080.
const project = {
  'index.html': `<!doctype html><html data-composition-variables='${declarations}'><head><style>
    html, body { margin: 0; } #root { width: 320px; height: 180px; background: var(--bg); }
    h1 { margin: 0; color: #fff; font: 40px sans-serif; }
  </style></head><body>
    <div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1"><h1 data-var-text="title">Hello</h1></div>
  </body></html>`,
  'broken.html': '<!doctype html><html><body><p>no composition root here</p></body></html>',
};

// A page whose whole frame is red unless its relative sub-composition paints it green.
const URL_PAGE = `<!doctype html><html><head><style>html, body { margin: 0; } #root { width: 320px; height: 180px; background: #ff0000; position: relative; overflow: hidden; }</style></head><body>
  <div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1">
    <div data-composition-id="scene" data-composition-src="scene.html" data-start="0" data-duration="1"></div>
  </div></body></html>`;
const URL_SCENE = `<template><div data-composition-id="scene" data-width="320" data-height="180" data-duration="1"><div class="fill"></div></div>
  <style>.fill { position: absolute; left: 0; top: 0; width: 320px; height: 180px; background: #00ff00; }</style></template>`;

describe('the service with the real renderer', { timeout: 120_000 }, () => {
  let service: TestService;
  let assetId: string;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: { path: string; body: string }[] = [];

  before(async () => {
    service = await startTestService({ render, concurrency: 1 });
    assetId = await uploadProject(service, project);
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        deliveries.push({ path: request.url ?? '', body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  after(async () => {
    receiver.close();
    await service.close();
  });

  test('renders the composition with an override; the downloaded video decodes to the expected frames and colors', async () => {
    const response = await service.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, fps: 10, quality: 'draft', format: 'mp4', variables: { bg: '#0000ff' } }),
    );
    assert.equal(response.status, 202, await response.clone().text());
    const { render_id } = (await response.json()) as { render_id: string };
    const finished = await waitForFinished(service, render_id, 90_000);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));

    const video = await fetch(String(finished.video_url));
    assert.equal(video.status, 200);
    const dir = await tempDir();
    try {
      const file = join(dir.path, 'out.mp4');
      await writeFile(file, Buffer.from(await video.arrayBuffer()));
      const { streams } = await probe(file);
      const stream = streams.find((candidate) => candidate.codec_type === 'video')!;
      assert.equal(stream.codec_name, 'h264');
      assert.deepEqual([stream.width, stream.height], [1920, 1080]);
      assert.equal(Number(stream.nb_read_frames), 10);
      const [r, g, b] = await pixelAt(file, 5, 1800, 1000);
      assert.ok(b > 200 && r < 60 && g < 60, `expected the override's blue, got ${[r, g, b]}`);
      const thumbnail = await fetch(String(finished.thumbnail_url));
      assert.equal(thumbnail.status, 200);
    } finally {
      await dir.cleanup();
    }
  });

  // The page and its sub-composition come from an origin; the page's relative `scene.html` must resolve against the
  // page's URL (the `<base href>` the service adds), not against the copy the renderer serves locally.
  test('a url render loads a relative sub-composition from the page origin', async () => {
    const origin = createServer((request, response) => {
      const body =
        request.url === '/site/page.html' ? URL_PAGE : request.url === '/site/scene.html' ? URL_SCENE : undefined;
      // The renderer compiles on a local origin: the sub-composition is a cross-origin fetch and needs CORS.
      if (body)
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'access-control-allow-origin': '*' })
          .end(body);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const dir = await tempDir();
    try {
      const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/site/page.html`;
      const response = await service.api('/v3/renders', jsonInit({ url, fps: 5, quality: 'draft' }));
      assert.equal(response.status, 202, await response.clone().text());
      const finished = await waitForFinished(
        service,
        ((await response.json()) as { render_id: string }).render_id,
        60_000,
      );
      assert.equal(finished.status, 'completed', JSON.stringify(finished.failure));
      assert.deepEqual(finished.warnings, []);
      const file = join(dir.path, 'url.mp4');
      await writeFile(file, Buffer.from(await (await fetch(String(finished.video_url))).arrayBuffer()));
      const [r, g, b] = await pixelAt(file, 2, 960, 540);
      assert.ok(
        g > 200 && r < 60 && b < 60,
        `expected the sub-composition's green over the page's red, got ${[r, g, b]}`,
      );
    } finally {
      origin.close();
      await dir.cleanup();
    }
  });

  test('a broken composition ends failed with a reason, and the webhook says so', async () => {
    const response = await service.api(
      '/v3/renders',
      jsonInit({
        asset_id: assetId,
        composition: 'broken.html',
        fps: 10,
        callback_url: `${receiverUrl}/hook`,
        callback_id: 'broken-1',
      }),
    );
    const { render_id } = (await response.json()) as { render_id: string };
    const finished = await waitForFinished(service, render_id, 60_000);
    assert.equal(finished.status, 'failed');
    // The compiler's message names the renderer's local URL; clients get the fixed message of the code.
    assert.deepEqual(finished.failure, {
      code: 'composition_invalid',
      message: 'the entry composition could not be compiled; it needs an element with "data-composition-id"',
    });
    const deadline = Date.now() + 10_000;
    while (!deliveries.some((delivery) => delivery.body.includes(render_id)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const event = JSON.parse(deliveries.find((delivery) => delivery.body.includes(render_id))!.body) as {
      type: string;
      data: { callback_id: string; status: string };
    };
    assert.deepEqual([event.type, event.data.status, event.data.callback_id], ['render.failed', 'failed', 'broken-1']);
  });
});

// A root without data-duration lasts as long as its registered timeline, which only the renderer measures: submit
// accepts it, and the service's length limit is applied when the render runs, with the renderer's code.
const timelineEntry = (seconds: number) => `<!doctype html><html><body>
  <div id="root" data-composition-id="main" data-width="320" data-height="180" style="background:#203040"></div>
  <script>window.__timelines = window.__timelines || {}; window.__timelines.main = { seek: function () {},
    pause: function () {}, duration: function () { return ${seconds}; } };</script></body></html>`;

describe('the service with a composition that takes its duration from its timeline', { timeout: 120_000 }, () => {
  let service: TestService;
  let assetId: string;

  before(async () => {
    service = await startTestService({
      render,
      concurrency: 1,
      limits: { maxDurationSeconds: 2 },
    });
    assetId = await uploadProject(service, { 'index.html': timelineEntry(1.5), 'long.html': timelineEntry(2.5) });
  });
  after(() => service.close());

  const submit = async (composition: string) => {
    const response = await service.api('/v3/renders', jsonInit({ asset_id: assetId, composition, fps: 4 }));
    assert.equal(response.status, 202, await response.clone().text());
    const { render_id } = (await response.json()) as { render_id: string };
    return waitForFinished(service, render_id, 90_000);
  };

  test('within the limit: completed, fps × the timeline length frames', async () => {
    const finished = await submit('index.html');
    assert.equal(finished.status, 'completed', JSON.stringify(finished.failure));
    assert.deepEqual((finished as { output?: unknown }).output, {
      width: 1920,
      height: 1080,
      frames: 6,
      duration: 1.5,
      start: 0,
    });
  });

  test('over the limit: accepted at submit, failed composition_duration_too_long when it renders', async () => {
    const finished = await submit('long.html');
    assert.deepEqual(
      [finished.status, (finished.failure as { code: string } | null)?.code],
      ['failed', 'composition_duration_too_long'],
    );
  });
});
