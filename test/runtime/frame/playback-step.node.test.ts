// Where a playback tick of the frame runtime's hot loop lands (src/runtime/frame/playback-step.ts), in Node.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { playbackStep } from '../../../src/runtime/frame/playback-step.js';

describe('playbackStep', () => {
  const anchor = { wall: 1000, time: 2 };

  test('advances composition time with wall time from the anchor', () => {
    assert.deepEqual(playbackStep(anchor, 1500, 10, false, 1), { time: 2.5, anchor, ended: false });
    assert.deepEqual(playbackStep(anchor, 1000, 10, false, 1), { time: 2, anchor, ended: false });
  });

  test('ends at the duration without loop, however far past it the tick came', () => {
    assert.deepEqual(playbackStep(anchor, 9000, 10, false, 1), { time: 10, anchor, ended: true });
    assert.deepEqual(playbackStep(anchor, 9000 + 1, 10, false, 1), { time: 10, anchor, ended: true });
    assert.deepEqual(playbackStep({ wall: 0, time: 0 }, 0, 10, false, 1).ended, false);
  });

  test('wraps with loop and re-anchors at the wrapped time', () => {
    const step = playbackStep(anchor, 1000 + 8500, 10, true, 1);
    assert.equal(step.ended, false);
    assert.ok(Math.abs(step.time - 0.5) < 1e-9, `time ${step.time}`);
    assert.deepEqual(step.anchor, { wall: 9500, time: step.time });
    // The next tick runs from the new anchor.
    assert.ok(Math.abs(playbackStep(step.anchor, 9600, 10, true, 1).time - 0.6) < 1e-9);
  });

  test('advances at the playback rate', () => {
    assert.deepEqual(playbackStep(anchor, 1500, 10, false, 2), { time: 3, anchor, ended: false });
    assert.deepEqual(playbackStep(anchor, 2000, 10, false, 0.5), { time: 2.5, anchor, ended: false });
    // Faster playback reaches the end sooner: 8 s left at 4× is 2 s of wall time.
    assert.deepEqual(playbackStep(anchor, 3000, 10, false, 4), { time: 10, anchor, ended: true });
  });

  test('wraps at the playback rate too', () => {
    const step = playbackStep(anchor, 1000 + 4250, 10, true, 2);
    assert.ok(Math.abs(step.time - 0.5) < 1e-9, `time ${step.time}`);
    assert.deepEqual(step.anchor, { wall: 5250, time: step.time });
  });

  test('a zero-length composition ends even with loop (no division by zero)', () => {
    assert.deepEqual(playbackStep({ wall: 0, time: 0 }, 16, 0, true, 1), {
      time: 0,
      anchor: { wall: 0, time: 0 },
      ended: true,
    });
  });
});
