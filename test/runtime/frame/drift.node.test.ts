// How a playing media element's drift from composition time is steered (src/runtime/frame/drift.ts), in Node.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGAGE, MAX_DRIFT, MAX_RATE_STEP, RELEASE, steerDrift } from '../../../src/runtime/frame/drift.js';

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
