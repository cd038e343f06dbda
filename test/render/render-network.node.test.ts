// An uploaded project cannot read the render machine's network into its video: a 127.0.0.1 server the test runs is
// never asked for anything, its picture never shows (the fallback does), while data: URLs and the project's own
// files load as before. The same project with unsafeAllowPrivateNetwork shows the server's picture.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import type { RenderResult } from '../../src/render/types.js';
import { looksLike, recordingServer, solidPng, tempDir, tileColor } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let project: string;
let target: Awaited<ReturnType<typeof recordingServer>>;

before(async () => {
  dir = await tempDir();
  project = join(dir.path, 'project');
  await mkdir(project);
  const green = await solidPng('0x00ff00', join(dir.path, 'green.png'));
  const blue = await solidPng('0x0000ff', join(dir.path, 'blue.png'));
  await solidPng('0xffff00', join(project, 'own.png'));
  target = await recordingServer((request, response) => {
    if (request.url === '/frame.html')
      return void response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<body style="margin:0;background:#00ff00">');
    response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(green);
  });
  // Four tiles, 80 px each: a red box whose background image comes from the server (red is the fallback), an
  // iframe of the server's green page, a blue data: image, the project's own yellow image.
  await writeFile(
    join(project, 'index.html'),
    `<!doctype html><html><head><style>
    body { margin: 0; }
    #root { width: 320px; height: 180px; position: relative; overflow: hidden; background: #000000; }
    .tile { position: absolute; top: 0; width: 80px; height: 80px; border: 0; display: block; }
  </style></head><body>
  <div id="root" data-composition-id="net" data-width="320" data-height="180" data-duration="0.2">
    <div class="tile" style="left: 0; background: url(${target.origin}/secret.png) 0 0 / cover, #ff0000"></div>
    <iframe class="tile" style="left: 80px" src="${target.origin}/frame.html"></iframe>
    <img class="tile" style="left: 160px" src="data:image/png;base64,${blue.toString('base64')}">
    <img class="tile" style="left: 240px" src="own.png">
    <script>fetch(${JSON.stringify(`${target.origin}/fetched`)}).catch(() => undefined);</script>
  </div></body></html>`,
  );
});

after(async () => {
  await target.close();
  await dir.cleanup();
});

const renderProject = (name: string, unsafeAllowPrivateNetwork?: boolean) =>
  render({
    projectDir: project,
    composition: 'index.html',
    fps: 5,
    quality: 'high',
    format: 'mp4',
    outputPath: join(dir.path, 'out', `${name}.mp4`),
    unsafeAllowPrivateNetwork,
  });

const tile = (result: RenderResult, index: number) => tileColor(result.videoPath, index);

test('requests to a 127.0.0.1 server are blocked: the server hears nothing and the fallback shows', async () => {
  const result = await renderProject('blocked');
  assert.deepEqual(target.requests, []);
  const [fallback, frame, data, own] = await Promise.all([0, 1, 2, 3].map((index) => tile(result, index)));
  assert.ok(looksLike(fallback!, [255, 0, 0]), `tile 0 shows the red fallback, got ${fallback}`);
  assert.ok(!looksLike(frame!, [0, 255, 0]), `tile 1 shows no page of the server, got ${frame}`);
  assert.ok(looksLike(data!, [0, 0, 255]), `the data: image still shows, got ${data}`);
  assert.ok(looksLike(own!, [255, 255, 0]), `the project's own image still shows, got ${own}`);
  const blocked = (result.issues ?? [])
    .filter((found) => found.code === 'network_request_blocked')
    .map((found) => /"([^"]+)"/.exec(found.message)![1]);
  assert.deepEqual(blocked.sort(), [
    `${target.origin}/fetched`,
    `${target.origin}/frame.html`,
    `${target.origin}/secret.png`,
  ]);
});

test("control: with unsafeAllowPrivateNetwork the same project shows the server's picture and page", async () => {
  const result = await renderProject('allowed', true);
  assert.deepEqual(target.requests.map((request) => request.url).sort(), ['/fetched', '/frame.html', '/secret.png']);
  assert.ok(looksLike(await tile(result, 0), [0, 255, 0]), 'tile 0 shows the server image');
  assert.ok(looksLike(await tile(result, 1), [0, 255, 0]), 'tile 1 shows the server page');
  assert.deepEqual(
    (result.issues ?? []).filter((found) => found.code === 'network_request_blocked'),
    [],
  );
});
