// Animated GIF: decoded back with ffprobe — frames = fps × duration (15 fps by default), the loop flag of the
// NETSCAPE2.0 extension (forever, or absent to play once), opaque, a JPEG thumbnail; a range; typed refusals.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isFxError } from '../../src/runtime/errors.js';
import { GIF_FPS, render } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/types.js';
import { FIXTURES, filesIn, pixelAt, probe, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

/** `moving-bar` (3 s, 320×180): a bar moving 100 px/s, a half-transparent red strip, the rest transparent. */
const gif = (change: Partial<RenderOptions> & Pick<RenderOptions, 'outputPath'>): RenderOptions => ({
  projectDir: join(FIXTURES, 'moving-bar'),
  composition: 'index.html',
  fps: GIF_FPS.default,
  quality: 'standard',
  format: 'gif',
  ...change,
});
const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};
const videoStream = async (file: string) =>
  (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;

/**
 * The loop count of a GIF's NETSCAPE2.0 application extension (0 = forever), or undefined when it has none (a
 * player shows it once). Layout: `!` 0xFF 0x0B "NETSCAPE2.0" 0x03 0x01 <count, 16-bit LE> 0x00.
 */
async function loopCount(file: string): Promise<number | undefined> {
  const bytes = await readFile(file);
  const at = bytes.indexOf(Buffer.from('\x21\xff\x0bNETSCAPE2.0', 'latin1'));
  if (at < 0) return undefined;
  assert.deepEqual([...bytes.subarray(at + 14, at + 16)], [0x03, 0x01], 'a looping sub-block');
  return bytes.readUInt16LE(at + 16);
}

test('gif: 15 fps by default, frames = fps × duration, loops forever, opaque, a JPEG thumbnail beside it', async () => {
  const result = await render(gif({ outputPath: join(dir.path, 'bar.gif') }));
  assert.deepEqual(
    { frames: result.frames, fps: result.fps, duration: result.duration, start: result.start, audio: result.hasAudio },
    { frames: 45, fps: 15, duration: 3, start: 0, audio: false },
  );
  const stream = await videoStream(result.videoPath);
  assert.deepEqual(
    [stream.codec_name, stream.width, stream.height, Number(stream.nb_read_frames)],
    ['gif', 320, 180, 45],
  );
  assert.equal((await probe(result.videoPath)).streams.length, 1, 'no audio in a GIF');
  assert.equal(await loopCount(result.videoPath), 0, 'NETSCAPE2.0 loop count 0: forever');
  // The transparent part is the black backdrop, fully opaque; the bar is white where it is at 1 s (x 100–140).
  const corner = await pixelAt(result.videoPath, 15, 250, 100);
  assert.ok(corner[3] === 255 && corner[0] < 20 && corner[2] < 20, `opaque black, got ${corner}`);
  const bar = await pixelAt(result.videoPath, 15, 120, 100);
  assert.ok(
    bar.slice(0, 3).every((value) => value > 230),
    `the bar at 1 s, got ${bar}`,
  );
  assert.equal(result.thumbnailPath, join(dir.path, 'bar.thumbnail.jpg'));
  assert.equal((await videoStream(result.thumbnailPath)).codec_name, 'mjpeg');
  assert.deepEqual(await filesIn(dir.path), ['bar.gif', 'bar.thumbnail.jpg'], 'no palette or frames left behind');
});

test('gif with loop false plays once: no NETSCAPE2.0 extension; 10 fps makes 30 frames', async () => {
  const result = await render(gif({ fps: 10, loop: false, outputPath: join(dir.path, 'once.gif') }));
  assert.equal(Number((await videoStream(result.videoPath)).nb_read_frames), 30);
  assert.equal(await loopCount(result.videoPath), undefined);
});

test('gif of a range: frames [round(1 × 15), round(2 × 15)), starting with the bar at 1 s', async () => {
  const result = await render(gif({ range: { start: 1, end: 2 }, outputPath: join(dir.path, 'range.gif') }));
  assert.deepEqual([result.frames, result.start, result.duration], [15, 1, 1]);
  assert.equal(Number((await videoStream(result.videoPath)).nb_read_frames), 15);
  const bar = await pixelAt(result.videoPath, 0, 120, 100);
  assert.ok(
    bar.slice(0, 3).every((value) => value > 230),
    `the bar at x 100–140 in the first frame, got ${bar}`,
  );
  const before = await pixelAt(result.videoPath, 0, 60, 100);
  assert.ok(before[0] < 20, `not yet where it was at 0.6 s, got ${before}`);
  assert.ok((await stat(result.videoPath)).size > 0);
});

for (const [name, change, code] of [
  ['a GIF at 60 fps', { fps: 60 }, 'render_option_invalid'],
  ['a 4k GIF', { resolution: '4k' }, 'resolution_format_unsupported'],
  ['"time" for a GIF', { time: 1 }, 'render_option_invalid'],
  ['a GIF range past the end', { range: { start: 2, end: 3.5 } }, 'range_outside_duration'],
  ['a GIF thumbnail outside its range', { range: { start: 0, end: 1 }, thumbnailTime: 2 }, 'time_outside_duration'],
] as const) {
  test(`${name} is refused with ${code}, nothing written`, async () => {
    const out = join(dir.path, `refused-${name.replace(/\W+/g, '-')}`);
    await assert.rejects(
      render(gif({ ...(change as Partial<RenderOptions>), outputPath: join(out, 'x.gif') })),
      hasCode(code),
    );
    assert.deepEqual(await filesIn(out), []);
  });
}

test('a GIF aborted mid-capture leaves nothing: no GIF, palette, kept frames or thumbnail', async () => {
  const out = join(dir.path, 'aborted');
  const controller = new AbortController();
  const running = render(
    gif({
      outputPath: join(out, 'x.gif'),
      signal: controller.signal,
      onProgress: ({ stage, framesDone }) => {
        if (stage === 'capturing' && framesDone === 10) controller.abort();
      },
    }),
  );
  await assert.rejects(running, hasCode('render_aborted'));
  assert.deepEqual(await filesIn(out), []);
});
