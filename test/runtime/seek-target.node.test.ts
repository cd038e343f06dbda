// Where a seek lands (src/runtime/seek-target.ts): the nearest frame, inside the composition.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seekTarget } from '../../src/runtime/seek-target.js';

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
