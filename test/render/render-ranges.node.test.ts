// Out-of-range numbers render as the preview shows them: clamped into the declared [min, max] (the frame runtime's
// resolver, shared with <fx-composition>; test/elements/live-variables.test.ts checks the preview side).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import { pixelAt, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
  const declarations = JSON.stringify([{ id: 'w', type: 'number', label: 'Width', default: 40, min: 0, max: 160 }]);
  await writeFile(
    join(dir.path, 'index.html'),
    `<!doctype html><html data-composition-variables='${declarations}'><head><style>
    body { margin: 0; }
    #root { width: 320px; height: 180px; position: relative; background: #000000; }
    #bar { position: absolute; left: 0; top: 0; height: 80px; width: calc(var(--w) * 1px); background: #ffffff; }
  </style></head><body>
  <div id="root" data-composition-id="ranges" data-width="320" data-height="180" data-duration="0.1"><div id="bar"></div></div>
  </body></html>`,
  );
});
after(() => dir.cleanup());

test('a number above its max renders clamped to the max, not as given', async () => {
  const result = await render({
    projectDir: dir.path,
    composition: 'index.html',
    fps: 30,
    quality: 'standard',
    format: 'mp4',
    outputPath: join(dir.path, 'out.mp4'),
    variables: { w: 1000 },
  });
  const inside = await pixelAt(result.videoPath, 0, 150, 40);
  const outside = await pixelAt(result.videoPath, 0, 200, 40);
  assert.ok(inside[0] > 200, `white at x=150 (within the clamped 160 px), got ${inside}`);
  assert.ok(outside[0] < 60, `black at x=200 (the unclamped 1000 px would be white), got ${outside}`);
});
