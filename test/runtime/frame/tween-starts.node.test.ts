// Where a GSAP-style timeline's tweens start (tween-starts.ts), read through GSAP's own surface: `getChildren`,
// `startTime`, `timeScale` and a staggered tween's `timeline`. Shapes below are built as GSAP 3 builds them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tweenStarts } from '../../../src/runtime/frame/tween-starts.js';

type Fake = { startTime(): number; timeScale?(): number; getChildren?(): Fake[]; timeline?: Fake };

const tween = (start: number, timeline?: Fake): Fake => ({ startTime: () => start, ...(timeline ? { timeline } : {}) });
const timeline = (start: number, children: Fake[], scale = 1): Fake => ({
  startTime: () => start,
  timeScale: () => scale,
  getChildren: () => children,
});

describe('tweenStarts', () => {
  it('lists every tween of a timeline in its own seconds', () => {
    assert.deepEqual(tweenStarts(timeline(0, [tween(0), tween(0.5), tween(2)])), [0, 0.5, 2]);
  });

  it('places the tweens of nested timelines by their offset and time scale', () => {
    const nested = timeline(1, [tween(0), tween(1)], 2);
    assert.deepEqual(tweenStarts(timeline(0, [tween(0.25), nested])), [0.25, 1, 1.5]);
    const deeper = timeline(0, [timeline(2, [timeline(1, [tween(2)], 4)], 0.5)]);
    // 2 + (1 + 2 / 4) / 0.5
    assert.deepEqual(tweenStarts(deeper), [5]);
  });

  it('counts the sub-tweens of a staggered tween, each where it starts', () => {
    const staggered = tween(1, timeline(0, [tween(0), tween(0.1), tween(0.2)]));
    assert.deepEqual(tweenStarts(timeline(0, [staggered])), [1, 1, 1.1, 1.2]);
  });

  it('reads nothing of a timeline that does not list its tweens, or of no timeline', () => {
    for (const value of [undefined, null, 0, 'tl', {}, { seek() {} }, { getChildren: 'no' }])
      assert.deepEqual(tweenStarts(value), []);
  });

  it('gives up quietly on a timeline that throws, loops or never ends, keeping what it read', () => {
    const throwing = {
      startTime: () => 0,
      getChildren: () => [
        tween(0.5),
        {
          startTime: () => {
            throw new Error('x');
          },
        },
      ],
    };
    assert.deepEqual(tweenStarts(throwing), [0.5]);
    const loop: Fake = { startTime: () => 0, getChildren: () => [tween(1), loop] };
    assert.deepEqual(tweenStarts(loop).slice(0, 2), [1, 1]);
    assert.ok(tweenStarts(loop).length <= 17);
    const wide = timeline(
      0,
      Array.from({ length: 50_000 }, (_, index) => tween(index)),
    );
    assert.equal(tweenStarts(wide).length, 20_000);
    assert.deepEqual(tweenStarts(timeline(0, [tween(Number.NaN), tween(Infinity), tween(3)])), [3]);
  });
});
