// Media in a render: a <video> shows the right frame of its clip at every composition frame, and the audio of
// <audio> and <video data-has-audio> is mixed in at the clip offsets the runtime plays them at.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { render } from '../../src/render/index.js';
import type { RenderResult } from '../../src/render/types.js';
import { copyFixture, grayAt, isClose, makeMedia, meanVolume, pixelAt, probe, tempDir } from './helpers.js';

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
  result = await render({ projectDir: project, composition: 'index.html', fps: FPS, quality: 'high', format: 'mp4', outputPath: join(dir.path, 'out', 'media.mp4') });
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
    assert.ok(distances[shown]! < 2.5, `composition frame ${n}: gray ${rendered[n]} is ${distances[shown]} off clip frame ${shown}`);
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
  const rendered = await render({ projectDir: cover, composition: 'index.html', fps: 30, quality: 'high', format: 'mp4', outputPath: join(dir.path, 'out', 'cover.mp4') });
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
