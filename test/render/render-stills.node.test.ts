// Stills (png, jpeg, webp): one frame at `time` on the frame grid, decoded back: size, alpha where the composition
// is transparent (png, webp) and none in jpeg, the result's fields, and typed refusals with nothing written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isFxError } from '../../src/runtime/errors.js';
import { render } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/types.js';
import { FIXTURES, filesIn, pixelAt, probe, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

/** The `transparent` fixture (1 s): the left of the frame is transparent, a blue box fades in from 0.2 to 1 on the right. */
const still = (change: Partial<RenderOptions> & Pick<RenderOptions, 'format' | 'outputPath'>): RenderOptions => ({
  projectDir: join(FIXTURES, 'transparent'),
  composition: 'index.html',
  fps: 30,
  quality: 'standard',
  ...change,
});
const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};
const videoStream = async (file: string) =>
  (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;

test('png: one RGBA frame at the composition size, transparent where the composition is, the box at its opacity', async () => {
  const result = await render(still({ format: 'png', time: 0.5, outputPath: join(dir.path, 'poster.png') }));
  assert.deepEqual(
    {
      frames: result.frames,
      duration: result.duration,
      start: result.start,
      width: result.width,
      height: result.height,
    },
    { frames: 1, duration: 0, start: 0.5, width: 320, height: 180 },
  );
  assert.equal(result.thumbnailPath, result.videoPath, 'a still is its own thumbnail');
  assert.equal(result.hasAudio, false);
  const stream = await videoStream(result.videoPath);
  assert.deepEqual(
    [stream.codec_name, stream.pix_fmt, stream.width, stream.height, stream.nb_read_frames],
    ['png', 'rgba', 320, 180, '1'],
  );
  assert.equal((await pixelAt(result.videoPath, 0, 50, 90))[3], 0, 'the left half is transparent');
  const [r, g, b, a] = await pixelAt(result.videoPath, 0, 250, 110);
  // Opacity 0.2 + 0.8 × 0.5 = 0.6 at 0.5 s.
  assert.ok(
    b > 200 && r < 30 && g < 30 && Math.abs(a - 153) <= 8,
    `the box is blue at alpha ≈ 153, got ${[r, g, b, a]}`,
  );
  assert.deepEqual(await filesIn(dir.path), ['poster.png'], 'nothing else left next to it');
});

test('jpeg: opaque (no alpha channel), the transparent part on the black backdrop; the default time is the middle', async () => {
  const result = await render(still({ format: 'jpeg', outputPath: join(dir.path, 'poster.jpg') }));
  assert.equal(result.start, 0.5, 'the middle of the 1 s composition');
  const stream = await videoStream(result.videoPath);
  assert.deepEqual([stream.codec_name, stream.pix_fmt], ['mjpeg', 'yuvj420p']);
  const [r, g, b] = await pixelAt(result.videoPath, 0, 50, 90);
  assert.ok(r < 12 && g < 12 && b < 12, `black backdrop, got ${[r, g, b]}`);
  const box = await pixelAt(result.videoPath, 0, 250, 110);
  assert.ok(Math.abs(box[2] - 153) <= 12 && box[0] < 20, `the box at 60 % over black, got ${box}`);
});

test('webp: decodes, lossy with its alpha kept; `time` snaps to the nearest frame', async () => {
  const result = await render(still({ format: 'webp', time: 0.258, outputPath: join(dir.path, 'poster.webp') }));
  assert.equal(result.start, 8 / 30, '0.258 s is nearest frame 8 at 30 fps');
  const stream = await videoStream(result.videoPath);
  assert.deepEqual([stream.codec_name, stream.width, stream.height], ['webp', 320, 180]);
  assert.equal(stream.pix_fmt, 'yuva420p', 'WebP with an alpha plane');
  assert.ok((await pixelAt(result.videoPath, 0, 50, 90))[3] < 8, 'the left half is transparent');
  assert.ok((await pixelAt(result.videoPath, 0, 250, 110))[3] > 60, 'the box is not');
});

test('a preset size letterboxes the still as the video: 1:1 1080p is 1080×1080 with transparent bars', async () => {
  const result = await render(
    still({ format: 'png', time: 0.9, aspectRatio: '1:1', outputPath: join(dir.path, 'square.png') }),
  );
  const stream = await videoStream(result.videoPath);
  assert.deepEqual([stream.width, stream.height], [1080, 1080]);
  assert.equal((await pixelAt(result.videoPath, 0, 540, 20))[3], 0, 'the bar above the picture is transparent');
});

for (const [name, change, code] of [
  ['"time" at the end', { format: 'png', time: 1 }, 'time_outside_duration'],
  ['"time" past the end', { format: 'jpeg', time: 7.5 }, 'time_outside_duration'],
  ['"range" for a still', { format: 'png', range: { start: 0, end: 0.5 } }, 'render_option_invalid'],
  ['"thumbnailTime" for a still', { format: 'webp', thumbnailTime: 0.5 }, 'render_option_invalid'],
  ['"loop" for a still', { format: 'png', loop: false }, 'render_option_invalid'],
  ['4k png', { format: 'png', resolution: '4k' }, 'resolution_format_unsupported'],
  ['4k webp', { format: 'webp', resolution: '4k' }, 'resolution_format_unsupported'],
] as const) {
  test(`${name} is refused with ${code}, nothing written`, async () => {
    const out = join(dir.path, `refused-${name.replace(/\W+/g, '-')}`);
    await assert.rejects(
      render(still({ ...(change as Partial<RenderOptions>), format: change.format, outputPath: join(out, 'still') })),
      hasCode(code),
    );
    assert.deepEqual(await filesIn(out), []);
  });
}

test('a still aborted once captured leaves nothing at its path', async () => {
  const out = join(dir.path, 'aborted');
  const controller = new AbortController();
  const running = render(
    still({
      format: 'webp',
      outputPath: join(out, 'x.webp'),
      signal: controller.signal,
      onProgress: ({ stage }) => {
        if (stage === 'encoding') controller.abort();
      },
    }),
  );
  await assert.rejects(running, hasCode('render_aborted'));
  assert.deepEqual(await filesIn(out), []);
});
