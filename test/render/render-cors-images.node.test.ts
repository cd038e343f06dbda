// `<img crossorigin>` of the project's own files in a render, as in the preview (test/elements/cors-images.test.ts):
// the project's server sends no CORS headers, and the images show all the same — top level and in a sub-composition.
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { render } from '../../src/render/index.js';
import { pixelAt, tempDir } from './helpers.js';

const dir = await tempDir();
after(() => dir.cleanup());

test('images asking for a CORS load render, top level and in a sub-composition', async () => {
  const project = join(dir.path, 'project');
  await cp(new URL('../fixtures/no-cors/', import.meta.url), project, { recursive: true });
  const result = await render({
    projectDir: project,
    composition: 'crossorigin.html',
    fps: 2,
    quality: 'high',
    format: 'mp4',
    outputPath: join(dir.path, 'cors.mp4'),
  });
  assert.deepEqual(result.issues, []);
  // pic.svg is 40×30 of #00c040: the crossorigin image at the top left, the sub-composition's below the row.
  for (const [x, y] of [
    [20, 15],
    [20, 45],
  ] as const) {
    const [red, green, blue] = await pixelAt(result.videoPath, 0, x, y);
    assert.ok(
      red < 30 && green > 160 && blue < 90,
      `(${x}, ${y}) should be the image's green, got ${[red, green, blue]}`,
    );
  }
});
