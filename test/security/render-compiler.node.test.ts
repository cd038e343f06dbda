// Issue 8, item 12 (the compiler's share): the renderer compiles the same untrusted compositions, in its own
// Chromium, from the render machine's network position. A 127.0.0.1 server stands in for the service's network;
// the render runs with unsafeAllowPrivateNetwork so that the network policy lets it through and only the
// compiler's own rule (the project folder, nothing else) stands in the way. Its content, and a `file:` path's,
// never reach the frame; an entry in a subfolder still reads `../shared/`; 4 MB of `url(` does not stall the
// compile; a fan-out stops at the instance limit; a sub-composition reads no top-level overrides.
// A sub-composition's @keyframes do not replace its parent's. One render of one 560 × 80 frame.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { render } from '../../src/render/index.js';
import type { RenderResult } from '../../src/render/types.js';
import { looksLike, recordingServer, tempDir, tileColor } from '../render/helpers.js';

const SECRET = 'SERVICE-NETWORK-SECRET';
const GREEN = [0, 255, 0] as const;
const RED = [255, 0, 0] as const;

let dir: { path: string; cleanup: () => Promise<void> };
let network: Awaited<ReturnType<typeof recordingServer>>;
let result: RenderResult;

const tile = (index: number, style = '') =>
  `position: absolute; top: 0; left: ${index * 80}px; width: 80px; height: 80px; ${style}`;
/** A sub-composition painting its tile `color`. */
const paint = (color: string, extra = '') =>
  `<template><div data-composition-id="p"><div style="width: 80px; height: 80px; background: ${color}"></div>${extra}</div></template>`;

before(async () => {
  dir = await tempDir();
  const project = join(dir.path, 'project');
  const local = join(dir.path, 'local');
  await Promise.all(['scenes', 'shared', 'chain'].map((folder) => mkdir(join(project, folder), { recursive: true })));
  await mkdir(local);
  // What lies outside the project: a server on the render machine's network, and a local file.
  network = await recordingServer((request, response) => {
    const type = request.url?.endsWith('.css')
      ? 'text/css'
      : request.url?.endsWith('.js')
        ? 'text/javascript'
        : 'text/html';
    const body =
      type === 'text/css'
        ? `.leak { background: #ff0000 !important; --secret: "${SECRET}"; }`
        : type === 'text/html'
          ? paint('#ff0000', `<p>${SECRET}</p>`)
          : `document.body.setAttribute('data-secret', '${SECRET}');`;
    response.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' }).end(body);
  });
  await writeFile(join(local, 'secret.html'), paint('#ff0000', `<p>${SECRET}</p>`));
  await writeFile(join(local, 'secret.css'), `.leak { background: #ff0000 !important; }`);
  const file = (name: string) => pathToFileURL(join(local, name)).href;

  await writeFile(join(project, 'shared', 'shared.css'), '.t0 { background: #00ff00; }');
  await writeFile(join(project, 'shared', 'card.html'), paint('#00ff00'));
  // A project sub-composition naming a stylesheet and a script on the server, and a script on the disk.
  await writeFile(
    join(project, 'shared', 'leaky.html'),
    paint(
      '#00ff00',
      `<link rel="stylesheet" href="${network.origin}/secret.css"><script src="${network.origin}/secret.js"></script>`,
    ),
  );
  await writeFile(
    join(project, 'shared', 'leaky-file.html'),
    paint('#00ff00', `<script src="${file('secret.js')}"></script>`),
  );
  // 4 MB of `url(` without `)`: quadratic scans took hours on this.
  await writeFile(join(project, 'shared', 'huge.css'), 'url('.repeat(1_000_000));
  // Five small files mounting each other five times: 3905 instances unbounded.
  for (let level = 1; level <= 5; level += 1) {
    const next = level < 5 ? `<i data-composition-src="l${level + 1}.html"></i>`.repeat(5) : '';
    await writeFile(
      join(project, 'chain', `l${level}.html`),
      `<template><b data-composition-id="l${level}">${next}</b></template>`,
    );
  }
  // Paints its tile red when it can read the top-level overrides, green when it cannot.
  await writeFile(
    join(project, 'shared', 'overrides.html'),
    `<template><div data-composition-id="o"><div id="o-paint" style="width: 80px; height: 80px"></div>` +
      `<script>document.getElementById('o-paint').style.background = (typeof window.__fxVariables !== 'undefined' || typeof __fxVariables !== 'undefined') ? '#ff0000' : '#00ff00';</script></div></template>`,
  );

  // Defines the parent's keyframes name again, in red.
  await writeFile(
    join(project, 'shared', 'keyframes.html'),
    '<template><div data-composition-id="k"></div><style>@keyframes fill { from, to { background-color: #ff0000; } }</style></template>',
  );

  await writeFile(
    join(project, 'scenes', 'index.html'),
    `<!doctype html><html data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"t"}]'><head>
    <link rel="stylesheet" href="../shared/shared.css"><link rel="stylesheet" href="../shared/huge.css">
    <link rel="stylesheet" href="${file('secret.css')}">
    <style>body { margin: 0; } #root { position: relative; width: 560px; height: 80px; overflow: hidden; background: #000000; }
      @keyframes fill { from, to { background-color: #00ff00; } } .t6 { animation: fill 1s paused; }</style>
    </head><body><div id="root" data-composition-id="leaks" data-width="560" data-height="80" data-duration="0.2">
      <div class="t0" style="${tile(0)}"></div>
      <div style="${tile(1)}" data-composition-src="../shared/card.html"></div>
      <div class="leak" style="${tile(2)}" data-composition-src="${network.origin}/sub.html"></div>
      <div style="${tile(3)}" data-composition-src="../shared/leaky.html"></div>
      <div class="leak" style="${tile(4)}" data-composition-src="${file('secret.html')}"></div>
      <div style="${tile(5)}" data-composition-src="../shared/overrides.html"></div>
      <div class="t6" style="${tile(6)}"></div>
      <div style="display: none">
        <div data-composition-src="../shared/leaky-file.html"></div>
        <div data-composition-src="../../outside.html"></div>
        <div data-composition-src="../shared/keyframes.html"></div>
        ${'<i data-composition-src="../chain/l1.html"></i>'.repeat(5)}
      </div>
    </div></body></html>`,
  );
  result = await render({
    projectDir: project,
    composition: 'scenes/index.html',
    fps: 5,
    quality: 'high',
    format: 'mp4',
    variables: { title: 'top-level override' },
    outputPath: join(dir.path, 'out.mp4'),
    unsafeAllowPrivateNetwork: true,
  });
});

after(async () => {
  await network?.close();
  await dir?.cleanup();
});

const codes = () => (result.issues ?? []).map((found) => found.code);

test('the compiler asks the server on the render machine’s network for nothing', () => {
  assert.deepEqual(network.requests, []);
});

test('a sub-composition, stylesheet or script outside the project is refused with "url_outside_scope"', () => {
  const outside = (result.issues ?? [])
    .filter((found) => found.code === 'url_outside_scope')
    .map((found) => String(found.path.at(-1)));
  assert.ok(outside.includes(`${network.origin}/sub.html`), `the server's sub-composition is refused: ${outside}`);
  assert.ok(
    outside.some((path) => path.endsWith('shared/leaky.html')),
    `the sub-composition naming the server's files is refused: ${outside}`,
  );
  assert.ok(
    outside.some((path) => path.endsWith('shared/leaky-file.html')),
    `the sub-composition naming a file: script is refused: ${outside}`,
  );
  assert.ok(
    outside.some((path) => path.startsWith('file:')),
    `the file: stylesheet is refused: ${outside}`,
  );
  assert.ok(outside.includes('../../outside.html'), `a path above the project is refused: ${outside}`);
  assert.ok(codes().includes('subcomposition_url_refused'), 'the file: sub-composition is refused');
});

test('none of it reaches the frame: the tiles it would paint red are not red', async () => {
  for (const index of [2, 3, 4]) {
    const color = await tileColor(result.videoPath, index);
    assert.ok(!looksLike(color, RED), `tile ${index} shows nothing from outside the project, got ${color}`);
  }
});

test('an entry in a subfolder still reads ../shared/: its stylesheet and sub-composition paint', async () => {
  assert.ok(looksLike(await tileColor(result.videoPath, 0), GREEN), 'tile 0 is styled by ../shared/shared.css');
  assert.ok(
    looksLike(await tileColor(result.videoPath, 1), GREEN),
    'tile 1 is the ../shared/card.html sub-composition',
  );
});

test('the fan-out stops at the instance limit, and 4 MB of `url(` compiled', () => {
  assert.equal(codes().filter((code) => code === 'subcomposition_too_many').length, 1);
});

test('a sub-composition’s script reads no top-level overrides', async () => {
  assert.ok(
    looksLike(await tileColor(result.videoPath, 5), GREEN),
    `tile 5 is green, got ${await tileColor(result.videoPath, 5)}`,
  );
});

test('a sub-composition’s @keyframes do not replace the parent’s', async () => {
  assert.ok(
    looksLike(await tileColor(result.videoPath, 6), GREEN),
    `tile 6 keeps the parent's keyframes, got ${await tileColor(result.videoPath, 6)}`,
  );
});
