// creditsFor (src/service/renders/billing.ts): one credit per second at 30 fps, 1.5× for 4k, rounded up to 0.01.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { creditsFor } from '../../../src/service/renders/billing.js';

describe('creditsFor', () => {
  const CASES: [number, '1080p' | '4k', number][] = [
    [30, '1080p', 1],
    [60, '1080p', 2],
    [30, '4k', 1.5],
    [31, '1080p', 1.04],
    [1, '1080p', 0.04],
    [300, '4k', 15],
    [0, '1080p', 0],
  ];
  for (const [frames, resolution, credits] of CASES)
    test(`${frames} frames at ${resolution} cost ${credits}`, () =>
      assert.equal(creditsFor(frames, resolution), credits));
});
