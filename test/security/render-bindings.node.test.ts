// The renderer binds values with the same runtime as the preview, so `data-var-text` on <script> and <style> (HTML
// and SVG, classic and module) must run nothing there either: the render completes, the picture is what the
// composition draws, and a 127.0.0.1 server the values name hears nothing, even with the private network allowed so
// a request would get through. A control project with the same payloads written by its author proves they would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import { looksLike, recordingServer, tempDir, tileColor } from '../render/helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let target: Awaited<ReturnType<typeof recordingServer>>;
let payloads: { script: (name: string) => string; css: (name: string) => string };

const DECLARATIONS = [
  { id: 't', type: 'string', label: 'Script', default: '' },
  { id: 'css', type: 'string', label: 'Style', default: '' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#000000' },
];
const BLUE = [0, 0, 255] as const;
const RED = [255, 0, 0] as const;
const GREEN = [0, 255, 0] as const;

/**
 * Three 80 px tiles: #a (blue) that a script would paint red, #b (blue) that a stylesheet would paint red, and #c
 * painted by the `accent` value (the control that values reached the render). `inner` goes into the root.
 */
function project(inner: string, head = ''): string {
  return `<!doctype html><html data-composition-variables='${JSON.stringify(DECLARATIONS)}'><head><style>
    body { margin: 0; }
    #root { width: 320px; height: 180px; position: relative; overflow: hidden; background: #000000; }
    .tile { position: absolute; top: 0; width: 80px; height: 80px; background: #0000ff; }
  </style>${head}</head><body>
  <div id="root" data-composition-id="bindings" data-width="320" data-height="180" data-duration="0.2">
    <div id="a" class="tile" style="left: 0"></div>
    <div id="b" class="tile" style="left: 80px"></div>
    <div id="c" class="tile" style="left: 160px; background: var(--accent)"></div>
    ${inner}
  </div></body></html>`;
}

before(async () => {
  dir = await tempDir('fx-render-bindings-');
  target = await recordingServer(
    (_request, response) =>
      void response.writeHead(200, { 'content-type': 'text/css', 'access-control-allow-origin': '*' }).end(''),
  );
  payloads = {
    script: (name) =>
      `document.getElementById('a').style.background = '#ff0000'; fetch('${target.origin}/${name}').catch(() => undefined);`,
    css: (name) => `@import url("${target.origin}/${name}.css"); #b { background: #ff0000 !important; }`,
  };
  const bound = project(
    '<script data-var-text="t"></script><script type="module" data-var-text="t"></script>' +
      '<svg width="1" height="1"><script data-var-text="t"></script><style data-var-text="css"></style></svg>',
    '<style data-var-text="css">/* authored */</style>',
  );
  const control = project(
    `<script>${payloads.script('control-script')}</script>`,
    `<style>${payloads.css('control-style')}</style>`,
  );
  for (const [name, html] of [
    ['bound', bound],
    ['control', control],
  ] as const) {
    await mkdir(join(dir.path, name));
    await writeFile(join(dir.path, name, 'index.html'), html);
  }
});

after(async () => {
  await target.close();
  await dir.cleanup();
});

const renderProject = (name: string, variables: Record<string, unknown>) => {
  target.requests.length = 0;
  return render({
    projectDir: join(dir.path, name),
    composition: 'index.html',
    fps: 5,
    quality: 'high',
    format: 'mp4',
    outputPath: join(dir.path, 'out', `${name}.mp4`),
    variables,
    unsafeAllowPrivateNetwork: true,
  });
};

test('control: the same script and style written by the author repaint the tiles and reach the server', async () => {
  const result = await renderProject('control', { accent: '#00ff00' });
  assert.ok(looksLike(await tileColor(result.videoPath, 0), RED), 'the script painted tile 0');
  assert.ok(looksLike(await tileColor(result.videoPath, 1), RED), 'the stylesheet painted tile 1');
  assert.deepEqual(target.requests.map((request) => request.url).sort(), ['/control-script', '/control-style.css']);
});

test('values bound into <script> and <style> run nothing in the render: picture unchanged, no request', async () => {
  const result = await renderProject('bound', {
    t: payloads.script('bound-script'),
    css: payloads.css('bound-style'),
    accent: '#00ff00',
  });
  assert.equal(result.frames, 1);
  const [a, b, c] = await Promise.all([0, 1, 2].map((index) => tileColor(result.videoPath, index)));
  // One comparison, so a failure shows every effect at once.
  const seen = {
    scriptTile: looksLike(a!, BLUE),
    styleTile: looksLike(b!, BLUE),
    valueTile: looksLike(c!, GREEN),
    requests: target.requests.map((request) => request.url),
  };
  assert.deepEqual(
    seen,
    { scriptTile: true, styleTile: true, valueTile: true, requests: [] },
    `tiles ${a} | ${b} | ${c}`,
  );
  // Refused, and said so: the render result carries each refusal as the preview's variableschange does.
  const refused = (result.issues ?? []).filter((found) => found.code === 'binding_tag_not_allowed');
  assert.equal(refused.length, 5, JSON.stringify(result.issues));
});
