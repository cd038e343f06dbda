// A render refuses a composition that names a file its project does not have (project_file_missing), unless told
// `allowMissingFiles`; an <img crossorigin> past the compiler's inline limit is refused as the preview refuses it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { render } from '../../src/render/index.js';
import { isFxError } from '../../src/runtime/errors.js';
import { probe, solidPng, tempDir } from './helpers.js';

const dir = await tempDir();
after(() => dir.cleanup());

const composition = (body: string) =>
  `<!doctype html><html><body style="margin:0;background:#2040c0">` +
  `<div data-composition-id="m" data-width="64" data-height="48" data-duration="1">${body}</div></body></html>`;

async function project(name: string, html: string): Promise<string> {
  const folder = join(dir.path, name);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'index.html'), html);
  return folder;
}

const options = (projectDir: string, output: string) => ({
  projectDir,
  composition: 'index.html',
  fps: 2,
  quality: 'draft' as const,
  format: 'mp4' as const,
  concurrency: 1,
  outputPath: join(dir.path, output),
});

test('a missing image: refused with project_file_missing naming it, nothing written', async () => {
  const folder = await project('missing', composition('<img src="img/gone.png"><video poster="p.png"></video>'));
  const error = await render(options(folder, 'missing.mp4')).then(
    () => assert.fail('expected the render to be refused'),
    (caught: unknown) => caught,
  );
  assert.ok(isFxError(error, 'project_file_missing'), String(error));
  assert.match(error.message, /"img\/gone\.png"/);
  assert.deepEqual(
    error.issues.map((found) => found.path),
    [
      ['index.html', '<img src>', 'img/gone.png'],
      ['index.html', '<video poster>', 'p.png'],
    ],
  );
  assert.equal(existsSync(join(dir.path, 'missing.mp4')), false);
});

test('allowMissingFiles: renders anyway, and says which files were missing', async () => {
  const folder = await project('allowed', composition('<img src="img/gone.png">'));
  const result = await render({ ...options(folder, 'allowed.mp4'), allowMissingFiles: true });
  assert.deepEqual(
    result.issues?.map((found) => [found.code, found.path]),
    [['project_file_missing', ['index.html', '<img src>', 'img/gone.png']]],
  );
  const { streams } = await probe(result.videoPath);
  assert.equal(streams[0]?.codec_type, 'video');
  assert.equal(streams[0]?.nb_read_frames, '2');
});

test('an <img crossorigin> of 59 MB: refused with image_too_large, as the preview refuses it', async () => {
  const folder = await project('large', composition('<img crossorigin src="big.png">'));
  // A real 8×8 PNG padded past its end to 59 MB: decoders ignore bytes after IEND, so the image itself shows.
  await solidPng('red', join(folder, 'big.png'));
  for (let chunk = 0; chunk < 59; chunk++) await appendFile(join(folder, 'big.png'), Buffer.alloc(1024 * 1024));
  const error = await render(options(folder, 'large.mp4')).then(
    () => assert.fail('expected the render to be refused'),
    (caught: unknown) => caught,
  );
  assert.ok(isFxError(error, 'image_too_large'), String(error));
  assert.match(error.message, /big\.png/);
  assert.equal(existsSync(join(dir.path, 'large.mp4')), false);
});
