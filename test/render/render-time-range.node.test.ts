// `range` and `thumbnailTime` on a composition whose gray level encodes the time (black at 0 s to white at 2 s), with
// a tone from 0.5 s to 1.5 s: frame count, `start`, the first frame's time, the audio cut to the range (also in a
// chunked render), the thumbnail's time; times outside the output refused with the wire's codes, nothing written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isFxError } from '../../src/runtime/errors.js';
import { joinChunks, planChunks, render, renderChunk } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/types.js';
import { filesIn, grayAt, isClose, makeMedia, meanVolume, probe, tempDir } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let project: string;
before(async () => {
  dir = await tempDir();
  project = join(dir.path, 'ramp');
  await mkdir(project);
  await makeMedia(project);
  await writeFile(
    join(project, 'index.html'),
    `<!doctype html><html><head><style>
    body { margin: 0; }
    #root { width: 160px; height: 90px; animation: ramp 2s linear both; }
    @keyframes ramp { from { background-color: #000000; } to { background-color: #ffffff; } }
  </style></head><body>
  <div id="root" data-composition-id="ramp" data-width="160" data-height="90" data-duration="2">
    <audio src="tone.wav" data-start="0.5"></audio>
  </div></body></html>`,
  );
});
after(() => dir.cleanup());

const ramp = (change: Partial<RenderOptions> & Pick<RenderOptions, 'outputPath'>): RenderOptions => ({
  projectDir: project,
  composition: 'index.html',
  fps: 30,
  quality: 'high',
  format: 'mp4',
  unsafeAllowPrivateNetwork: true,
  ...change,
});
/** The time a gray level shows: 255 at 2 s. */
const timeOf = (gray: number) => (gray / 255) * 2;
const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};
const streams = async (file: string) => (await probe(file)).streams;

/** Output [0, 0.3) s of a range from 1.2 s holds the tone (it ends at 1.5 s), the rest is silent. */
async function toneEndsAt03(file: string, length: number): Promise<void> {
  const audio = (await streams(file)).find((stream) => stream.codec_type === 'audio')!;
  assert.ok(isClose(Number(audio.duration), length, 0.05), `audio lasts the range: ${audio.duration} s`);
  assert.ok((await meanVolume(file, 0.02, 0.27)) > -30, 'the tone plays at the start of the output');
  assert.ok((await meanVolume(file, 0.36, length - 0.05)) < -60, 'silence after the tone ended at 1.5 s');
}

test('mp4 range 1.2–2 s: 24 frames from 1.2 s, start 1.2, audio cut to 0.8 s and picked up mid-clip', async () => {
  const result = await render(ramp({ range: { start: 1.2, end: 2 }, outputPath: join(dir.path, 'range.mp4') }));
  assert.deepEqual([result.frames, result.start, result.duration, result.hasAudio], [24, 1.2, 0.8, true]);
  const video = (await streams(result.videoPath)).find((stream) => stream.codec_type === 'video')!;
  assert.equal(Number(video.nb_read_frames), 24);
  const grays = await grayAt(result.videoPath, 80, 45);
  assert.ok(isClose(timeOf(grays[0]!), 1.2, 0.06), `the first frame shows 1.2 s, got ${timeOf(grays[0]!)} s`);
  assert.ok(isClose(timeOf(grays.at(-1)!), 2 - 1 / 30, 0.06), `the last shows 1.967 s, got ${timeOf(grays.at(-1)!)}`);
  await toneEndsAt03(result.videoPath, 0.8);
  // The default thumbnail: min(1 s, half the output) into it, 1.6 s.
  const [thumbnail] = await grayAt(result.thumbnailPath, 80, 45);
  assert.ok(isClose(timeOf(thumbnail!), 1.6, 0.06), `thumbnail at 1.6 s, got ${timeOf(thumbnail!)} s`);
});

test('thumbnailTime picks the thumbnail frame; without it the thumbnail is at 1 s', async () => {
  const chosen = await render(ramp({ thumbnailTime: 0.5, outputPath: join(dir.path, 'chosen.mp4') }));
  const [gray] = await grayAt(chosen.thumbnailPath, 80, 45);
  assert.ok(isClose(timeOf(gray!), 0.5, 0.06), `thumbnail at 0.5 s, got ${timeOf(gray!)} s`);
  assert.deepEqual([chosen.frames, chosen.start], [60, 0]);
  const fallback = await render(ramp({ format: 'webm', outputPath: join(dir.path, 'default.webm') }));
  const [defaultGray] = await grayAt(fallback.thumbnailPath, 80, 45);
  assert.ok(isClose(timeOf(defaultGray!), 1, 0.06), `default thumbnail at 1 s, got ${timeOf(defaultGray!)} s`);
});

test('a chunked render of a range: chunks tile the range, the join starts at it and cuts the audio to it', async () => {
  const range = { start: 1.2, end: 2 };
  const plan = planChunks(24, 2, { minChunkFrames: 10 }).map((chunk) => ({ from: chunk.from + 36, to: chunk.to + 36 }));
  const chunks = await Promise.all(
    plan.map((chunk, index) =>
      renderChunk({ ...ramp({ range, outputPath: join(dir.path, `chunk-${index}.mp4`) }), chunk, concurrency: 1 }),
    ),
  );
  const result = await joinChunks({
    chunks,
    outputPath: join(dir.path, 'joined.mp4'),
    projectDir: project,
    unsafeAllowPrivateNetwork: true,
  });
  assert.deepEqual([result.frames, result.start, result.duration], [24, 1.2, 0.8]);
  const grays = await grayAt(result.videoPath, 80, 45);
  assert.equal(grays.length, 24);
  assert.ok(isClose(timeOf(grays[0]!), 1.2, 0.06), `the first frame shows 1.2 s, got ${timeOf(grays[0]!)} s`);
  await toneEndsAt03(result.videoPath, 0.8);
  const [thumbnail] = await grayAt(result.thumbnailPath, 80, 45);
  assert.ok(isClose(timeOf(thumbnail!), 1.6, 0.06), `thumbnail at 1.6 s, got ${timeOf(thumbnail!)} s`);
  // A chunk outside the range is no part of this render.
  await assert.rejects(
    renderChunk({ ...ramp({ range, outputPath: join(dir.path, 'outside.mp4') }), chunk: { from: 0, to: 36 } }),
    hasCode('chunk_ranges_invalid'),
  );
});

for (const [name, change, code] of [
  ['a range past the end', { range: { start: 1, end: 2.5 } }, 'range_outside_duration'],
  ['a range wholly after the end', { range: { start: 3, end: 4 } }, 'range_outside_duration'],
  ['a thumbnailTime past the end', { thumbnailTime: 2 }, 'time_outside_duration'],
  ['a thumbnailTime before the range', { range: { start: 1, end: 2 }, thumbnailTime: 0.5 }, 'time_outside_duration'],
  ['"time" for an mp4', { time: 1 }, 'render_option_invalid'],
  ['"loop" for a webm', { format: 'webm', loop: true }, 'render_option_invalid'],
] as const) {
  test(`${name} is refused with ${code}, nothing written`, async () => {
    const out = join(dir.path, `refused-${name.replace(/\W+/g, '-')}`);
    await assert.rejects(
      render(ramp({ ...(change as Partial<RenderOptions>), outputPath: join(out, 'x.mp4') })),
      hasCode(code),
    );
    assert.deepEqual(await filesIn(out), []);
  });
}
