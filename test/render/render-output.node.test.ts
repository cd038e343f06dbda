// Real renders of small fixtures, checked with ffprobe and pixel probes: codec, exact frame count, duration, size,
// alpha kept in webm and mov, variables changing the picture, scaling to the presets, the screenshot fallback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import type { RenderOptions, RenderProgress, RenderResult } from '../../src/render/types.js';
import { FIXTURES, filesIn, isClose, pixelAt, probe, rowAt, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const animated = (change: Partial<RenderOptions> & { outputPath: string }): RenderOptions => ({
  projectDir: join(FIXTURES, 'animated'),
  composition: 'index.html',
  fps: 30,
  quality: 'standard',
  format: 'mp4',
  ...change,
});
const videoStream = async (file: string) =>
  (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;

let mp4: RenderResult;
const progress: RenderProgress[] = [];

test('mp4: H.264 yuv420p with exactly fps × duration frames, at the composition size', async () => {
  mp4 = await render(
    animated({ outputPath: join(dir.path, 'default.mp4'), onProgress: (event) => progress.push(event) }),
  );
  const video = await videoStream(mp4.videoPath);
  assert.deepEqual(
    {
      codec: video.codec_name,
      pix: video.pix_fmt,
      width: video.width,
      height: video.height,
      frames: Number(video.nb_read_frames),
      rate: video.r_frame_rate,
    },
    { codec: 'h264', pix: 'yuv420p', width: 320, height: 180, frames: 60, rate: '30/1' },
  );
  assert.ok(isClose(Number(video.duration), 2, 0.001), `duration ${video.duration}`);
  assert.deepEqual(
    { frames: mp4.frames, fps: mp4.fps, duration: mp4.duration, width: mp4.width, height: mp4.height },
    { frames: 60, fps: 30, duration: 2, width: 320, height: 180 },
  );
  assert.equal((await probe(mp4.videoPath)).streams.length, 1, 'no audio stream without audio clips');
});

test('mp4: the moov atom comes first (+faststart)', async () => {
  const file = await readFile(mp4.videoPath);
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= file.length; offset += file.readUInt32BE(offset)) {
    boxes.push(file.toString('latin1', offset + 4, offset + 8));
    if (file.readUInt32BE(offset) < 8) break;
  }
  assert.ok(
    boxes.includes('moov') && boxes.indexOf('moov') < boxes.indexOf('mdat'),
    `top-level boxes: ${boxes.join(', ')}`,
  );
});

test('every frame is the frame of its time: the slider moves 4 px a frame', async () => {
  // The white slider covers x = 120t … 120t + 80 (t in seconds) at y = 40; probe just inside its left edge.
  for (const frame of [0, 15, 30, 45, 59]) {
    const left = Math.round((frame / 30) * 120);
    const inside = await pixelAt(mp4.videoPath, frame, left + 2, 40);
    const before = left >= 4 ? await pixelAt(mp4.videoPath, frame, left - 3, 40) : undefined;
    assert.ok(inside[0] > 200 && inside[1] > 200, `frame ${frame}: white at x=${left + 2}, got ${inside}`);
    if (before) assert.ok(before[0] < 60, `frame ${frame}: background at x=${left - 3}, got ${before}`);
  }
});

test('the default variable value shows, and leaves nothing but the video and its thumbnail', async () => {
  const [red, green, blue] = await pixelAt(mp4.videoPath, 30, 300, 160);
  assert.ok(red > 200 && green < 50 && blue < 50, `default accent #ff0000, got ${[red, green, blue]}`);
  assert.deepEqual(await filesIn(dir.path), ['default.mp4', 'default.thumbnail.jpg']);
});

test('a variable override visibly changes the frame', async () => {
  const result = await render(
    animated({ outputPath: join(dir.path, 'override.mp4'), variables: { accent: '#00ff00', title: 'Changed' } }),
  );
  const [red, green, blue] = await pixelAt(result.videoPath, 30, 300, 160);
  assert.ok(red < 50 && green > 200 && blue < 50, `overridden accent #00ff00, got ${[red, green, blue]}`);
});

test('progress goes through the stages in order and counts every frame', () => {
  const stages = progress.map((event) => event.stage).filter((stage, index, all) => stage !== all[index - 1]);
  assert.deepEqual(stages, ['compiling', 'loading', 'capturing', 'encoding', 'done']);
  const counts = progress.filter((event) => event.stage === 'capturing').map((event) => event.framesDone);
  assert.deepEqual(
    counts,
    Array.from({ length: 61 }, (_, index) => index),
  );
  assert.ok(progress.slice(1).every((event) => event.framesTotal === 60));
});

test('the thumbnail is a JPEG of the frame at 1 s', async () => {
  const thumbnail = await readFile(mp4.thumbnailPath);
  assert.equal(mp4.thumbnailPath, join(dir.path, 'default.thumbnail.jpg'));
  assert.deepEqual([...thumbnail.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  const info = await videoStream(mp4.thumbnailPath);
  assert.deepEqual([info.width, info.height], [320, 180]);
  // At 1 s the slider's left edge is at x = 120.
  assert.ok((await pixelAt(mp4.thumbnailPath, 0, 125, 40))[0] > 200);
  assert.ok((await pixelAt(mp4.thumbnailPath, 0, 115, 40))[0] < 60);
});

const transparent = (format: 'webm' | 'mov', name: string): RenderOptions => ({
  projectDir: join(FIXTURES, 'transparent'),
  composition: 'index.html',
  fps: 30,
  quality: 'draft',
  format,
  outputPath: join(dir.path, name),
});

test('webm: VP9 with an alpha channel; a transparent pixel decodes back transparent', async () => {
  const result = await render(transparent('webm', 'alpha.webm'));
  const { streams } = await probe(result.videoPath);
  assert.equal(streams[0]!.codec_name, 'vp9');
  assert.equal(streams[0]!.tags?.alpha_mode ?? streams[0]!.tags?.ALPHA_MODE, '1');
  assert.equal(Number(streams[0]!.nb_read_frames), 30);
  const clear = await pixelAt(result.videoPath, 29, 10, 10, { vp9Alpha: true });
  const box = await pixelAt(result.videoPath, 29, 250, 110, { vp9Alpha: true });
  assert.ok(clear[3] < 5, `transparent corner, got alpha ${clear[3]}`);
  assert.ok(box[3] > 240 && box[2] > 200 && box[0] < 40, `opaque blue box, got ${box}`);
  // At frame 0 the box is at opacity 0.2.
  const faint = await pixelAt(result.videoPath, 0, 250, 110, { vp9Alpha: true });
  assert.ok(isClose(faint[3], 51, 12), `box at 20 % opacity, got alpha ${faint[3]}`);
  assert.match(result.thumbnailPath, /alpha\.thumbnail\.png$/);
});

test('mov: ProRes 4444 with an alpha channel; a transparent pixel decodes back transparent', async () => {
  const result = await render(transparent('mov', 'alpha.mov'));
  const video = await videoStream(result.videoPath);
  assert.equal(video.codec_name, 'prores');
  assert.match(video.profile ?? '', /4444/);
  assert.match(video.pix_fmt ?? '', /^yuva444p/);
  assert.equal(Number(video.nb_read_frames), 30);
  const clear = await pixelAt(result.videoPath, 29, 10, 10);
  const box = await pixelAt(result.videoPath, 29, 250, 110);
  assert.ok(clear[3] < 3, `transparent corner, got alpha ${clear[3]}`);
  assert.ok(box[3] > 240 && box[2] > 200 && box[0] < 40, `opaque blue box, got ${box}`);
});

test('1080p from a 320×180 composition: scaled 6×, the picture keeps its layout', async () => {
  const result = await render(
    animated({ outputPath: join(dir.path, 'full-hd.mp4'), resolution: '1080p', fps: 5, quality: 'draft' }),
  );
  const video = await videoStream(result.videoPath);
  assert.deepEqual([video.width, video.height, Number(video.nb_read_frames)], [1920, 1080, 10]);
  // The accent block (x 240–320, y 120–180 in the composition) lands at x 1440–1920, y 720–1080.
  const [red] = await pixelAt(result.videoPath, 5, 1800, 960);
  const [outside] = await pixelAt(result.videoPath, 5, 1300, 960);
  assert.ok(red > 200 && outside < 60, `accent at 6×, got ${red} inside and ${outside} outside`);
});

test('1:1 from a 16:9 composition: fitted by width and letterboxed', async () => {
  const result = await render(
    animated({
      outputPath: join(dir.path, 'square.mp4'),
      resolution: '1080p',
      aspectRatio: '1:1',
      fps: 2,
      quality: 'draft',
    }),
  );
  const video = await videoStream(result.videoPath);
  assert.deepEqual([video.width, video.height], [1080, 1080]);
  // 320×180 at 3.375× is 1080×607.5, centred: bars above y ≈ 236 and below y ≈ 844.
  assert.ok(
    (await pixelAt(result.videoPath, 1, 540, 100)).slice(0, 3).every((value) => value < 10),
    'black bar on top',
  );
  assert.ok((await pixelAt(result.videoPath, 1, 1000, 780))[0] > 200, 'accent block inside the picture');
});

test('two capture workers deliver every frame, in order', async () => {
  const result = await render(
    animated({ outputPath: join(dir.path, 'parallel.mp4'), fps: 10, quality: 'high', concurrency: 2 }),
  );
  const rows = await rowAt(result.videoPath, 40);
  assert.equal(rows.length, 20);
  rows.forEach((row, frame) => {
    // The slider's left edge moves 12 px a frame at 10 fps.
    const edge = row.findIndex((level) => level > 128);
    assert.ok(isClose(edge, 12 * frame, 1), `frame ${frame}: slider edge at x=${edge}, expected ${12 * frame}`);
  });
});

test('the screenshot capture path (full Chromium) gives the same video', async () => {
  const result = await render(
    animated({ outputPath: join(dir.path, 'screenshot.mp4'), capture: 'screenshot', fps: 5 }),
  );
  assert.equal(result.capture, 'screenshot');
  const video = await videoStream(result.videoPath);
  assert.equal(Number(video.nb_read_frames), 10);
  const left = Math.round((5 / 5) * 120);
  assert.ok((await pixelAt(result.videoPath, 5, left + 2, 40))[0] > 200, 'the slider is where it should be at 1 s');
  assert.ok((await stat(result.thumbnailPath)).size > 0);
});
