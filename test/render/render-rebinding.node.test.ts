// DNS rebinding against a real render: the composition loads from "localhost", which the test's resolver answers
// with a "public" address (127.0.0.2) for the network check and a private one (127.0.0.1) afterwards. Chromium
// itself would resolve localhost to 127.0.0.1 — the control shows it does when nothing stands in its way — but
// the render's browser leaves through the egress proxy, which connects to the address checked: the picture comes
// from the public server, and the private one is never contacted (not by http, https or a WebSocket), nor by
// FFmpeg fetching the page's remote audio for the mix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import { unsafeReplaceAddressRules } from '../../src/render/network/public-address.js';
import type { RenderResult } from '../../src/render/types.js';
import { ffmpeg, looksLike, solidPng, tempDir, tileColor } from './helpers.js';
import { httpTwins, PRIVATE_ADDRESS, PUBLIC_STAND_IN, scriptedRules, tcpTwins, type Twins } from './rebinding.js';

let dir: { path: string; cleanup: () => Promise<void> };
let project: string;
let web: Twins;
let tls: Twins;
let restoreRules: () => void;

before(async () => {
  dir = await tempDir();
  project = join(dir.path, 'project');
  await mkdir(project);
  const pictures = {
    public: await solidPng('0x00ff00', join(dir.path, 'green.png')),
    private: await solidPng('0x0000ff', join(dir.path, 'blue.png')),
  };
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.5', join(dir.path, 'tone.wav')]);
  const tone = await readFile(join(dir.path, 'tone.wav'));
  web = await httpTwins((side, request, response) => {
    if (request.url === '/tone.wav')
      return void response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': tone.length }).end(tone);
    response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(pictures[side]);
  });
  tls = await tcpTwins();
  restoreRules = unsafeReplaceAddressRules(scriptedRules({ localhost: [PUBLIC_STAND_IN, PRIVATE_ADDRESS] }));
  // Two tiles, 80 px each, red where nothing loaded: an http picture (green from the public server, blue from the
  // private one) and an https picture (neither server speaks TLS: it stays red, but the handshake shows where it went).
  const origin = `http://localhost:${web.port}`;
  await writeFile(
    join(project, 'index.html'),
    `<!doctype html><html><head><style>
    body { margin: 0; }
    #root { width: 320px; height: 180px; position: relative; overflow: hidden; background: #000000; }
    .tile { position: absolute; top: 0; width: 80px; height: 80px; }
  </style></head><body>
  <div id="root" data-composition-id="rebind" data-width="320" data-height="180" data-duration="0.2">
    <div class="tile" style="left: 0; background: url(${origin}/picture.png) 0 0 / cover, #ff0000"></div>
    <div class="tile" style="left: 80px; background: url(https://localhost:${tls.port}/picture.png) 0 0 / cover, #ff0000"></div>
    <audio src="${origin}/tone.wav" data-start="0"></audio>
    <script>
      fetch(${JSON.stringify(`${origin}/fetched`)}).catch(() => undefined);
      new WebSocket(${JSON.stringify(`ws://localhost:${web.port}/socket`)});
    </script>
  </div></body></html>`,
  );
});

after(async () => {
  restoreRules();
  await Promise.all([web.close(), tls.close()]);
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

test('the page loads from the address that was checked; the private server hears nothing', async () => {
  const result = await renderProject('guarded');
  assert.equal(web.private.connections, 0, 'no connection to the private http server');
  assert.equal(tls.private.connections, 0, 'no connection to the private https server');
  assert.ok(looksLike(await tile(result, 0), [0, 255, 0]), "tile 0 shows the public server's green picture");
  const urls = web.public.requests.map((request) => request.url);
  assert.ok(
    urls.includes('/picture.png') && urls.includes('/fetched'),
    `the public server served the page, got ${urls}`,
  );
  assert.ok(!urls.includes('/socket'), 'no WebSocket reached it either');
  assert.ok(
    tls.public.firstBytes.some((bytes) => bytes[0] === 0x16),
    "the https picture's handshake went to the public address",
  );
  assert.deepEqual(
    (result.issues ?? []).filter((found) => found.code === 'network_request_blocked'),
    [],
  );
  assert.equal(result.hasAudio, true, 'the remote audio was mixed, fetched from the public address');
  assert.ok(urls.includes('/tone.wav'));
});

test('control: without the guard, Chromium resolves localhost itself and reaches the private server', async () => {
  const result = await renderProject('unguarded', true);
  assert.ok(
    web.private.requests.some((request) => request.url === '/picture.png'),
    'the private server was asked for the picture',
  );
  assert.ok(looksLike(await tile(result, 0), [0, 0, 255]), "tile 0 shows the private server's blue picture");
});
