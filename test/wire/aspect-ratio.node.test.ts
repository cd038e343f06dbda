// aspectRatioOf (src/wire/aspect-ratio.ts): a composition's aspect ratio from its size, as the renderer detects it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aspectRatioOf } from '../../src/wire/aspect-ratio.js';

describe("aspectRatioOf (the renderer's detectAspectRatio, 16:9 without a size)", () => {
  const CASES: [number | undefined, number | undefined, string][] = [
    [1920, 1080, '16:9'],
    [1080, 1920, '9:16'],
    [1000, 1000, '1:1'],
    [1280, 960, '1:1'],
    [2560, 1080, '16:9'],
    [undefined, 1080, '16:9'],
    [undefined, undefined, '16:9'],
  ];
  for (const [width, height, ratio] of CASES)
    test(`${width}×${height} → ${ratio}`, () => assert.equal(aspectRatioOf({ width, height }), ratio));
});
