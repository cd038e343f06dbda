// checkCompositionLength (src/service/renders/project-check.ts): a render's length against the service's limits,
// at submit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCompositionLength } from '../../../src/service/renders/project-check.js';

describe('checkCompositionLength', () => {
  const limits = { maxDurationSeconds: 600, maxFrames: 36_000 };
  const ACCEPTED: [number | undefined, number][] = [
    [undefined, 240],
    [600, 60],
    [0.5, 30],
    [150, 240],
  ];
  const REFUSED: [number, number][] = [
    [1e308, 1],
    [600.001, 1],
    [601, 1],
    [600, 61],
    [150.01, 240],
    [Number.MAX_VALUE, 240],
  ];
  for (const [duration, fps] of ACCEPTED)
    test(`${duration} s at ${fps} fps is accepted`, () => checkCompositionLength(duration, 'index.html', fps, limits));
  for (const [duration, fps] of REFUSED) {
    test(`${duration} s at ${fps} fps → composition_duration_too_long`, () => {
      assert.throws(() => checkCompositionLength(duration, 'index.html', fps, limits), {
        code: 'composition_duration_too_long',
        status: 422,
        param: 'composition',
      });
    });
  }
  test('frames are counted like the renderer counts them (rounded)', () => {
    checkCompositionLength(0.34, 'index.html', 30, { maxDurationSeconds: 600, maxFrames: 10 });
    assert.throws(() => checkCompositionLength(0.35, 'index.html', 30, { maxDurationSeconds: 600, maxFrames: 10 }), {
      code: 'composition_duration_too_long',
    });
  });
});
