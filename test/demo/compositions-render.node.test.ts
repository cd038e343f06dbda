// Each demo composition renders with the real renderer (Chromium + FFmpeg) at the size the service gives its
// aspect ratio at 1080p: checked with ffprobe (size, frame count) and, for the media one, its mixed audio. A low
// fps keeps this quick; frames = duration × fps.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { render } from '../../src/render/index.js';
import type { RenderResult } from '../../src/render/types.js';
import { meanVolume, pixelAt, probe, tempDir } from '../render/helpers.js';

const COMPOSITIONS = fileURLToPath(new URL('../../demo/compositions/', import.meta.url));
const FPS = 4;

const CASES = [
  { name: 'launch', size: [1920, 1080], seconds: 8, audio: false },
  { name: 'media', size: [1920, 1080], seconds: 5, audio: true },
  { name: 'story', size: [1080, 1920], seconds: 4, audio: false },
] as const;

let dir: { path: string; cleanup: () => Promise<void> };
before(async () => (dir = await tempDir('fx-demo-render-')));
after(() => dir.cleanup());

/** Renders are kept by name and values: a test reading the same video again does not render it again. */
const renders = new Map<string, Promise<RenderResult>>();
function renderDemo(name: string, variables: Record<string, unknown> = {}): Promise<RenderResult> {
  const key = JSON.stringify([name, variables]);
  if (!renders.has(key)) {
    renders.set(
      key,
      render({
        projectDir: join(COMPOSITIONS, name),
        composition: 'index.html',
        fps: FPS,
        quality: 'draft',
        format: 'mp4',
        resolution: '1080p',
        variables,
        outputPath: join(dir.path, `${name}-${renders.size}.mp4`),
      }),
    );
  }
  return renders.get(key)!;
}

for (const { name, size, seconds, audio } of CASES) {
  test(`demo composition "${name}" renders: ${size.join('×')}, ${seconds * FPS} frames${audio ? ', with audio' : ''}`, async () => {
    const result = await renderDemo(name);
    assert.deepEqual(
      (result.issues ?? []).filter((found) => found.severity === 'error'),
      [],
    );
    const { streams } = await probe(result.videoPath);
    const video = streams.find((stream) => stream.codec_type === 'video')!;
    assert.deepEqual([video.width, video.height, Number(video.nb_read_frames)], [...size, seconds * FPS]);
    assert.equal(
      streams.some((stream) => stream.codec_type === 'audio'),
      audio,
    );
    assert.equal(result.hasAudio, audio);
  });
}

test('the media composition mixes its generated chord while it plays, and its generated clip shows', async () => {
  const result = await renderDemo('media');
  const [silent, playing] = [await meanVolume(result.videoPath, 0, 0.45), await meanVolume(result.videoPath, 1.5, 3.5)];
  assert.ok(silent < -60, `nothing plays before 0.5 s, got ${silent} dB`);
  assert.ok(playing > -30, `the chord plays from 0.5 s, got ${playing} dB`);
  // Mid-clip (2.5 s = frame 10), the middle of the clip's box (72 + 320, 96 + 180 CSS px, ×1.5) is the clip's
  // gradient, not the page's near-black background.
  const [red, green, blue] = await pixelAt(result.videoPath, 10, 588, 414);
  assert.ok(red + green + blue > 150, `the clip's box shows ${[red, green, blue]}`);
});

test('the media composition mixes its chord at the "volume" it declares', async () => {
  const loud = await meanVolume((await renderDemo('media')).videoPath, 1.5, 3.5);
  const soft = await meanVolume((await renderDemo('media', { volume: 0.25 })).videoPath, 1.5, 3.5);
  // 0.25 of the default 0.8 is 10.1 dB lower.
  assert.ok(Math.abs(loud - soft - 10.1) < 2, `volume 0.8 → ${loud} dB, 0.25 → ${soft} dB`);
});

test('the media composition with "music" off renders no audio stream', async () => {
  const result = await renderDemo('media', { music: false });
  const { streams } = await probe(result.videoPath);
  assert.equal(
    streams.some((stream) => stream.codec_type === 'audio'),
    false,
  );
});
