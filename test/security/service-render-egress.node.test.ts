// Issue 8 item 12 (service share): a composition in an uploaded project must not read the render machine's
// network, files or cloud metadata — the service's own API on 127.0.0.1, 169.254.169.254, file:///etc/passwd —
// as an image, a fetch, a stylesheet, a sub-composition or a font variable's source. Rendered end to end through the service with the
// real renderer and its production network rule (`allowPrivateNetworkUrls: false`). The service carries a canary
// route under /v3 that counts every request reaching it and answers each kind with something that would load
// (CORS allowed), so a leak shows as a hit, a red tile in the video and a missing warning.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { render } from '../../src/render/index.js';
import { pixelAt, solidPng, tempDir } from '../render/helpers.js';
import {
  jsonInit,
  startTestService,
  uploadProject,
  waitForFinished,
  type TestService,
} from '../service/helpers/harness.js';

const CANARY = '/v3/egress-canary';
const KINDS = ['img', 'fetch', 'css', 'sub'] as const;
type Kind = (typeof KINDS)[number];
const TILE = 120;
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 160, 0];

let dir: { path: string; cleanup: () => Promise<void> };
let png: Buffer;
const hits: string[] = [];
let service: TestService;

before(async () => {
  dir = await tempDir('fx-egress-test-');
  png = await solidPng('0xff0000', join(dir.path, 'red.png'));
  service = await startTestService({
    render,
    concurrency: 1,
    allowPrivateNetworkUrls: process.env.FX_TEST_UNSAFE_EGRESS === '1', // '1' only to see this test catch a leak
    routes: (app) =>
      app.get(CANARY, (c) => {
        hits.push(c.req.url);
        const kind = c.req.query('kind') as Kind;
        const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
        if (kind === 'img') return c.body(new Uint8Array(png), 200, { ...headers, 'content-type': 'image/png' });
        if (kind === 'css')
          return c.body(`#${c.req.query('tile')} { background: rgb(255, 0, 0) !important; }`, 200, {
            ...headers,
            'content-type': 'text/css',
          });
        if (kind === 'sub') {
          const html = `<template><div data-composition-id="leak" data-width="${TILE}" data-height="${TILE}" data-duration="1" style="width:${TILE}px;height:${TILE}px;background:rgb(255,0,0)"></div></template>`;
          return c.body(html, 200, { ...headers, 'content-type': 'text/html' });
        }
        return c.json({ secret: 'service data' }, 200, headers);
      }),
  });
});
after(async () => {
  await service?.close();
  await dir?.cleanup();
});

/** One row per target, one tile per kind; a tile turns green when its load fails, red when it succeeds. */
function composition(targets: readonly string[]): string {
  const tiles = targets.flatMap((target, row) =>
    KINDS.map((kind, column) => {
      const id = `t-${kind}-${row}`;
      const url = target.startsWith('http')
        ? `${target}${target.includes('?') ? '&' : '?'}kind=${kind}&tile=${id}`
        : target;
      const style = `position:absolute;left:${column * TILE}px;top:${row * TILE}px;width:${TILE}px;height:${TILE}px;background:rgb(0,0,255)`;
      // An empty sub-composition host shows its own background: green unless something was inlined over it.
      if (kind === 'sub')
        return `<div id="${id}" style="${style.replace('rgb(0,0,255)', 'rgb(0,160,0)')}"><div data-composition-id="sub${row}" data-composition-src="${url}" data-start="0" data-duration="1"></div></div>`;
      return `<div id="${id}" data-kind="${kind}" data-url="${url}" style="${style}"></div>`;
    }),
  );
  const script = `<script>
    const paint = (tile, ok) => { tile.style.background = ok ? 'rgb(255,0,0)' : 'rgb(0,160,0)'; };
    for (const tile of document.querySelectorAll('[data-kind]')) {
      const url = tile.dataset.url;
      if (tile.dataset.kind === 'img') { const img = new Image(); img.onload = () => paint(tile, true); img.onerror = () => paint(tile, false); img.src = url; }
      if (tile.dataset.kind === 'fetch') fetch(url).then((r) => r.text()).then(() => paint(tile, true), () => paint(tile, false));
      if (tile.dataset.kind === 'css') { const link = document.createElement('link'); link.rel = 'stylesheet'; link.onload = () => paint(tile, true); link.onerror = () => paint(tile, false); link.href = url; document.head.append(link); }
    }
  </script>`;
  // Font variables whose values name each target (item 2 in the render): the runtime loads their faces in the page.
  const fonts = targets.map((_, row) => ({
    id: `face${row}`,
    type: 'font',
    label: `Face ${row}`,
    default: 'sans-serif',
  }));
  return `<!doctype html><html data-composition-variables='${JSON.stringify(fonts)}'><head><style>html, body { margin: 0; } #root { position: relative; width: 960px; height: 540px; background: #000; }</style></head><body>
    <div id="root" data-composition-id="main" data-width="960" data-height="540" data-duration="1">${tiles.join('')}</div>${script}</body></html>`;
}

const near = (rgb: number[], expected: readonly number[]) =>
  rgb.every((value, channel) => Math.abs(value - expected[channel]!) < 60);

test(
  'a composition reaches neither the service, nor cloud metadata, nor local files, as image, fetch, stylesheet, sub-composition or font value',
  { timeout: 180_000 },
  async () => {
    const targets = [
      `${service.url}${CANARY}?from=service`,
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
    ];
    const assetId = await uploadProject(service, { 'index.html': composition(targets) });
    const variables = Object.fromEntries(
      targets.map((target, row) => [
        `face${row}`,
        { name: `Leak${row}`, source: target.startsWith('http') ? `${target}&kind=font` : target },
      ]),
    );
    const submitted = await service.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, fps: 5, quality: 'draft', variables }),
    );
    assert.equal(submitted.status, 202, await submitted.clone().text());
    const finished = await waitForFinished(
      service,
      ((await submitted.json()) as { render_id: string }).render_id,
      150_000,
    );
    assert.equal(finished.status, 'completed', JSON.stringify(finished));

    assert.deepEqual(hits, [], 'no request reached the service from the render');
    const warnings = JSON.stringify(finished.warnings);
    assert.match(warnings, /network_request_blocked[^}]*127\.0\.0\.1/, `the service URL was refused: ${warnings}`);
    assert.match(
      warnings,
      /network_request_blocked[^}]*169\.254\.169\.254/,
      `the metadata URL was refused: ${warnings}`,
    );

    const video = join(dir.path, 'egress.mp4');
    await writeFile(video, Buffer.from(await (await fetch(String(finished.video_url))).arrayBuffer()));
    const last = 4; // 1 s at 5 fps: the probes had the whole second to load or fail
    for (const [row, target] of targets.entries()) {
      for (const [column, kind] of KINDS.entries()) {
        // 960×540 is rendered at 1920×1080: tile centres scale by 2.
        const rgb = (await pixelAt(video, last, (column * TILE + TILE / 2) * 2, (row * TILE + TILE / 2) * 2)).slice(
          0,
          3,
        );
        assert.ok(!near(rgb, RED), `${kind} of ${target} loaded (tile ${rgb})`);
        assert.ok(near(rgb, GREEN), `${kind} of ${target} did not fail as refused (tile ${rgb})`);
      }
    }
  },
);
