// The pure parts of the frame runtime's hot loop (src/runtime/frame/playback-step.ts, drift.ts), in Node: where a
// playback tick lands, where a seek lands, and how a playing media element's drift is steered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { playbackStep } from '../../src/runtime/frame/playback-step.js';
import { seekTarget } from '../../src/runtime/seek-target.js';
import { ENGAGE, MAX_DRIFT, MAX_RATE_STEP, RELEASE, steerDrift } from '../../src/runtime/frame/drift.js';

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

describe('seekTarget', () => {
  test('rounds to the nearest frame of the grid', () => {
    assert.equal(seekTarget(1.01, 4, 30), 1);
    assert.equal(seekTarget(1.02, 4, 30), 31 / 30);
    assert.equal(seekTarget(0.5, 4, 24), 0.5);
  });

  test('clamps to [0, duration] and takes anything not finite as 0', () => {
    assert.equal(seekTarget(-3, 4, 30), 0);
    assert.equal(seekTarget(99, 4, 30), 4);
    assert.equal(seekTarget(Number.NaN, 4, 30), 0);
    assert.equal(seekTarget(Infinity, 4, 30), 0);
  });
});

describe('steerDrift', () => {
  test('jumps beyond the largest drift, steering or not', () => {
    assert.deepEqual(steerDrift(MAX_DRIFT + 0.01, false), { kind: 'jump' });
    assert.deepEqual(steerDrift(-(MAX_DRIFT + 0.01), true), { kind: 'jump' });
  });

  test('leaves small drifts alone while not steering (a rate change stalls Chromium)', () => {
    assert.deepEqual(steerDrift(ENGAGE, false), { kind: 'leave' });
    assert.deepEqual(steerDrift(-0.01, false), { kind: 'leave' });
  });

  test('engages beyond ENGAGE: ahead plays slower, behind plays faster, in proportion', () => {
    const ahead = steerDrift(0.04, false);
    const behind = steerDrift(-0.04, false);
    assert.equal(ahead.kind, 'steer');
    assert.equal(behind.kind, 'steer');
    if (ahead.kind !== 'steer' || behind.kind !== 'steer') return;
    assert.ok(Math.abs(ahead.rate - 0.84) < 1e-9, `ahead ${ahead.rate}`);
    assert.ok(Math.abs(behind.rate - 1.16) < 1e-9, `behind ${behind.rate}`);
    assert.equal(ahead.steering, true);
  });

  test('bounds the rate change', () => {
    assert.deepEqual(steerDrift(0.2, false), { kind: 'steer', rate: 1 - MAX_RATE_STEP, steering: true });
    assert.deepEqual(steerDrift(-0.2, false), { kind: 'steer', rate: 1 + MAX_RATE_STEP, steering: true });
  });

  test('keeps steering small drifts once engaged, and releases at rate 1 below RELEASE', () => {
    const still = steerDrift(0.01, true);
    assert.equal(still.kind, 'steer');
    if (still.kind === 'steer') assert.equal(still.steering, true);
    assert.deepEqual(steerDrift(RELEASE / 2, true), { kind: 'steer', rate: 1, steering: false });
  });
});
