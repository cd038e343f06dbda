import assert from 'node:assert/strict';
import { test } from 'node:test';
import { posterSeconds } from '../../src/elements/composition/poster-time.js';
import { ErrorCode } from '../../src/wire/constants.js';
import { DEFAULT_STILL_TIME_SHARE, frameCount, frameIndex, outputFrames } from '../../src/wire/frames.js';

const framesOf = (duration: number, fps: number, request: Parameters<typeof outputFrames>[2]) => {
  const planned = outputFrames(duration, fps, request);
  assert.ok('frames' in planned, JSON.stringify(planned));
  return planned.frames;
};
const problemOf = (duration: number, fps: number, request: Parameters<typeof outputFrames>[2]) => {
  const planned = outputFrames(duration, fps, request);
  assert.ok('problem' in planned, JSON.stringify(planned));
  return planned.problem;
};

test('times fall on the nearest frame of the grid; a timeline holds at least one frame', () => {
  assert.equal(frameIndex(2.5, 30), 75);
  assert.equal(frameIndex(0.049, 10), 0);
  assert.equal(frameIndex(0.051, 10), 1);
  assert.equal(frameCount(0.01, 30), 1);
  assert.equal(frameCount(3, 30), 90);
});

test('a video: every frame, the thumbnail at 1 s, or half-way through a shorter output', () => {
  assert.deepEqual(framesOf(3, 30, { format: 'mp4' }), { from: 0, to: 90, thumbnail: 30 });
  assert.deepEqual(framesOf(1, 30, { format: 'webm' }), { from: 0, to: 30, thumbnail: 15 });
  assert.deepEqual(framesOf(0.02, 30, { format: 'mp4' }), { from: 0, to: 1, thumbnail: 0 });
});

test('a range: its frames only, the default thumbnail counted from its start', () => {
  assert.deepEqual(framesOf(10, 30, { format: 'mp4', range: { start: 2, end: 5 } }), {
    from: 60,
    to: 150,
    thumbnail: 90,
  });
  assert.deepEqual(framesOf(10, 15, { format: 'gif', range: { start: 9, end: 10 } }), {
    from: 135,
    to: 150,
    thumbnail: 143,
  });
});

test('thumbnail_time picks its frame, within what is rendered', () => {
  assert.equal(framesOf(3, 30, { format: 'mp4', thumbnail_time: 2.5 }).thumbnail, 75);
  assert.equal(framesOf(3, 30, { format: 'mp4', thumbnail_time: 0 }).thumbnail, 0);
  const past = problemOf(3, 30, { format: 'mp4', thumbnail_time: 3 });
  assert.equal(past.code, ErrorCode.timeOutsideDuration);
  assert.equal(past.param, 'thumbnail_time');
  const before = problemOf(10, 30, { format: 'mp4', range: { start: 2, end: 4 }, thumbnail_time: 1 });
  assert.equal(before.code, ErrorCode.timeOutsideDuration);
  assert.match(before.message, /outside the output of the range 2 s–4 s/);
});

test('a still: one frame at its time, the middle by default, itself its thumbnail', () => {
  assert.deepEqual(framesOf(3, 30, { format: 'png', time: 2.5 }), { from: 75, to: 76, thumbnail: 75 });
  assert.deepEqual(framesOf(3, 30, { format: 'jpeg' }), { from: 45, to: 46, thumbnail: 45 });
  // The element's poster rule: a still and the poster of the same composition show the same frame.
  assert.equal(posterSeconds(null, 3), 3 * DEFAULT_STILL_TIME_SHARE);
  // The last frame starts before the end: a time rounding onto the end is past it.
  assert.deepEqual(framesOf(3, 30, { format: 'webp', time: 2.98 }), { from: 89, to: 90, thumbnail: 89 });
  const end = problemOf(3, 30, { format: 'png', time: 2.99 });
  assert.equal(end.code, ErrorCode.timeOutsideDuration);
  assert.equal(end.param, 'time');
  assert.match(end.message, /"time" 2\.99 s is at or past the end; the composition lasts 3 s \(90 frames at 30 fps\)/);
});

test('a range ending past the end is refused with its own code', () => {
  const problem = problemOf(3, 30, { format: 'mp4', range: { start: 1, end: 3.5 } });
  assert.equal(problem.code, ErrorCode.rangeOutsideDuration);
  assert.equal(problem.param, 'range');
  assert.match(problem.message, /"range" 1 s–3\.5 s ends past the end/);
  // Exactly to the end is the whole rest of it.
  assert.deepEqual(framesOf(3, 30, { format: 'mp4', range: { start: 1, end: 3 } }).to, 90);
});
