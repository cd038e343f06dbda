// Media in a render: a <video> shows the right frame of its clip at every composition frame, and the audio of
// <audio> and <video data-has-audio> is mixed in at the clip offsets the runtime plays them at.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import type { RenderResult } from '../../src/render/types.js';
import { copyFixture, ffmpeg, grayAt, isClose, makeMedia, meanVolume, pixelAt, probe, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let project: string;
let result: RenderResult;
const FPS = 30;
/** The clip starts at 0.49 s: composition frame n shows clip frame n − 15 (see the fixture). */
const CLIP_FIRST_FRAME = 15;

before(async () => {
  dir = await tempDir();
  project = await copyFixture('media', join(dir.path, 'project'));
  await makeMedia(project);
  result = await render({
    projectDir: project,
    composition: 'index.html',
    fps: FPS,
    quality: 'high',
    format: 'mp4',
    outputPath: join(dir.path, 'out', 'media.mp4'),
  });
});

after(() => dir.cleanup());

test('every composition frame inside the clip shows the matching clip frame', async () => {
  // Clip frame k is flat gray 30 + 6k (limited range): levels 7 apart, so the nearest one names the frame shown.
  const clipLevels = await grayAt(join(project, 'clip.webm'), 80, 45);
  const rendered = await grayAt(result.videoPath, 80, 45);
  assert.equal(clipLevels.length, 30);
  for (let n = CLIP_FIRST_FRAME; n < CLIP_FIRST_FRAME + 30; n++) {
    const distances = clipLevels.map((level) => Math.abs(level - rendered[n]!));
    const shown = distances.indexOf(Math.min(...distances));
    assert.equal(shown, n - CLIP_FIRST_FRAME, `composition frame ${n} (gray ${rendered[n]}) shows clip frame ${shown}`);
    assert.ok(
      distances[shown]! < 2.5,
      `composition frame ${n}: gray ${rendered[n]} is ${distances[shown]} off clip frame ${shown}`,
    );
  }
});

test('the video is hidden outside its clip window', async () => {
  for (const n of [14, 45, 59]) {
    const [red, green, blue] = await pixelAt(result.videoPath, n, 80, 45);
    assert.ok(red + green + blue < 12, `frame ${n} should be black, got ${[red, green, blue]}`);
  }
});

test('the output carries one audio stream as long as the video', async () => {
  const { streams } = await probe(result.videoPath);
  const audio = streams.filter((stream) => stream.codec_type === 'audio');
  assert.equal(audio.length, 1);
  assert.equal(audio[0]!.codec_name, 'aac');
  assert.ok(isClose(Number(audio[0]!.duration), 2, 0.05), `audio lasts ${audio[0]!.duration} s`);
  assert.equal(result.hasAudio, true);
});

test('audio sounds only where its clips are', async () => {
  const silent = await meanVolume(result.videoPath, 0, 0.45);
  const videoAudio = await meanVolume(result.videoPath, 0.55, 0.95);
  const toneOnly = await meanVolume(result.videoPath, 1.55, 1.95);
  assert.ok(silent < -60, `before 0.49 s there is no clip, got ${silent} dB`);
  assert.ok(videoAudio > -30, `the video's audio plays from 0.49 s, got ${videoAudio} dB`);
  assert.ok(toneOnly > -30, `the <audio> plays from 1 s, got ${toneOnly} dB`);
});

test('a video filling the frame from frame 0 is captured from the first frame on', async () => {
  const cover = await copyFixture('video-cover', join(dir.path, 'cover'));
  await makeMedia(cover);
  const rendered = await render({
    projectDir: cover,
    composition: 'index.html',
    fps: 30,
    quality: 'high',
    format: 'mp4',
    outputPath: join(dir.path, 'out', 'cover.mp4'),
  });
  const clipLevels = await grayAt(join(cover, 'clip.webm'), 80, 45);
  // The clip is scaled 2× to cover the frame: its pixel (80, 45) lands at (160, 90).
  const levels = await grayAt(rendered.videoPath, 160, 90);
  assert.equal(levels.length, 30);
  // Clip frame k starts at 7 ms + k/30 s (see the media fixture), so composition frame n ≥ 1 still shows k = n − 1.
  for (const n of [0, 1, 2, 15, 29]) {
    const distances = clipLevels.map((level) => Math.abs(level - levels[n]!));
    const shown = distances.indexOf(Math.min(...distances));
    assert.equal(shown, Math.max(0, n - 1), `frame ${n} (gray ${levels[n]}) shows clip frame ${shown}`);
    assert.ok(distances[shown]! < 2.5, `frame ${n}: gray ${levels[n]} is no clip frame (black would be 0)`);
  }
});

/** A 0.5 s composition showing `clip.webm` from 0 s. */
const CLIP_FROM_ZERO = `<!doctype html>
<html><head><style>body { margin: 0; } #root { width: 320px; height: 180px; position: relative; background: #000; } video { position: absolute; left: 0; top: 0; width: 160px; height: 90px; }</style></head>
<body><div id="root" data-composition-id="negative-start" data-width="320" data-height="180" data-duration="0.5"><video src="clip.webm" muted playsinline></video></div></body></html>`;

test('a WebM whose audio starts before 0 renders without stalled seeks', { timeout: 60_000 }, async () => {
  // `-avoid_negative_ts disabled` keeps the Opus pre-skip in the timestamps: the audio starts at -13 ms. Chromium
  // never completes a seek of such a file once it loaded with the default preload="metadata", nor one made before
  // its first frame was decoded: each frame then waited out the runtime's 3 s seek timeout (about 45 s here).
  const project = join(dir.path, 'negative-start');
  await mkdir(project);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    "nullsrc=s=160x90:r=30:d=1,geq=lum='30+N*6':cb=128:cr=128,format=yuv420p",
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=1:r=48000',
    '-c:v',
    'libvpx-vp9',
    '-lossless',
    '1',
    '-c:a',
    'libopus',
    '-shortest',
    '-avoid_negative_ts',
    'disabled',
    join(project, 'clip.webm'),
  ]);
  const audio = (await probe(join(project, 'clip.webm'))).streams.find((stream) => stream.codec_type === 'audio') as
    { start_time?: string } | undefined;
  assert.ok(Number(audio?.start_time) < 0, `the audio should start before 0, starts at ${audio?.start_time}`);
  await writeFile(join(project, 'index.html'), CLIP_FROM_ZERO);
  const started = performance.now();
  const rendered = await render({
    projectDir: project,
    composition: 'index.html',
    fps: FPS,
    quality: 'high',
    format: 'mp4',
    concurrency: 1,
    outputPath: join(dir.path, 'out', 'negative-start.mp4'),
  });
  const seconds = (performance.now() - started) / 1000;
  assert.ok(seconds < 10, `15 frames took ${seconds.toFixed(1)} s`);
  // Its frames start at 0, so composition frame n shows clip frame n.
  const clipLevels = await grayAt(join(project, 'clip.webm'), 80, 45);
  const levels = await grayAt(rendered.videoPath, 80, 45);
  assert.equal(levels.length, 15);
  levels.forEach((level, n) =>
    assert.ok(Math.abs(level - clipLevels[n]!) < 2.5, `frame ${n}: gray ${level}, clip frame ${n} is ${clipLevels[n]}`),
  );
});
