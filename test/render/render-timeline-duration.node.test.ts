// A root without data-duration renders for as long as the timeline its scripts register (the rule of
// src/runtime/timeline-duration.ts, measured by the same frame runtime the preview runs): fps × that length
// frames, the render's length limits applied to it, and a typed error for a timeline that repeats forever.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFxError } from '../../src/runtime/errors.js';
import { render } from '../../src/render/index.js';
import type { RenderOptions } from '../../src/render/types.js';
import { filesIn, probe, tempDir } from './helpers.js';

const MINI_GSAP = fileURLToPath(new URL('../../bench/compositions/shared/mini-gsap.js', import.meta.url));

let dir: { path: string; cleanup: () => Promise<void> };
let counter = 0;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

/** A project whose entry is a block-shaped `<template>` root without data-duration; `timeline` is registered. */
async function project(timeline: string): Promise<string> {
  const path = join(dir.path, `project-${++counter}`);
  await mkdir(path);
  await copyFile(MINI_GSAP, join(path, 'mini-gsap.js'));
  await writeFile(
    join(path, 'index.html'),
    `<!doctype html><html><body><template>
      <div id="root" data-composition-id="block" data-width="320" data-height="180" style="background:#102030">
        <div id="bar" style="width:40px;height:40px;background:#ffcc00"></div>
        <script src="mini-gsap.js"></script>
        <script>window.__timelines = window.__timelines || {}; window.__timelines.block = (${timeline});</script>
      </div></template></body></html>`,
  );
  return path;
}

const GSAP_TIMELINE = `(function () {
  var tl = gsap.timeline({ paused: true });
  tl.to('#bar', { x: 200, duration: 1.5, ease: 'none' }, 0.2);
  return tl;
})()`;

const options = (projectDir: string, change: Partial<RenderOptions> = {}): RenderOptions => ({
  projectDir,
  composition: 'index.html',
  fps: 10,
  quality: 'draft',
  format: 'mp4',
  outputPath: join(dir.path, `out-${++counter}`, 'video.mp4'),
  ...change,
});

const hasCode = (code: string) => (error: unknown) => {
  assert.ok(isFxError(error), `expected an FxError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return true;
};

test('renders fps × the registered timeline length frames (1.7 s at 10 fps: 17)', async () => {
  const result = await render(options(await project(GSAP_TIMELINE)));
  const video = (await probe(result.videoPath)).streams.find((stream) => stream.codec_type === 'video')!;
  assert.equal(Number(video.nb_read_frames), 17);
  assert.deepEqual([result.frames, result.duration], [17, 1.7]);
  assert.ok(
    (result.issues ?? []).some(
      (found) => found.code === 'composition_duration_from_timeline' && found.severity === 'warning',
    ),
    'the render says where its duration came from',
  );
});

test('a timeline longer than maxDurationSeconds fails with composition_duration_too_long, nothing written', async () => {
  const settings = options(await project(GSAP_TIMELINE), { maxDurationSeconds: 1.5 });
  await assert.rejects(
    render(settings),
    (error) =>
      hasCode('composition_duration_too_long')(error) && /got a timeline of 1.7 s/.test((error as Error).message),
  );
  assert.deepEqual(await filesIn(join(settings.outputPath, '..')).catch(() => []), []);
});

test('a timeline that repeats forever fails with timeline_duration_invalid', async () => {
  const forever = `{ seek: function () {}, pause: function () {}, duration: function () { return 2; },
    totalDuration: function () { return 1e10; }, repeat: function () { return -1; } }`;
  await assert.rejects(render(options(await project(forever))), hasCode('timeline_duration_invalid'));
});

// The timeline's length is known only once a worker loaded the document: the renderer is where a `time` or `range`
// past it is found (the service cannot know it at submit), with the wire's codes.
test('a still of a timeline-measured composition: the middle by default; a time or range past its end is refused', async () => {
  const path = await project(GSAP_TIMELINE); // 1.7 s: 17 frames at 10 fps
  const still = await render(options(path, { format: 'png', outputPath: join(dir.path, `still-${++counter}.png`) }));
  assert.deepEqual([still.frames, still.start], [1, 0.9], 'frame round(0.85 × 10) = 9 of 17');
  for (const [change, code] of [
    [{ format: 'jpeg', time: 1.7 }, 'time_outside_duration'],
    [{ range: { start: 1, end: 2 } }, 'range_outside_duration'],
    [{ thumbnailTime: 1.75 }, 'time_outside_duration'],
  ] as const) {
    const outputPath = join(dir.path, `out-${++counter}`, 'refused');
    await assert.rejects(render(options(path, { ...change, outputPath })), hasCode(code));
    assert.deepEqual(await filesIn(join(outputPath, '..')), []);
  }
});
