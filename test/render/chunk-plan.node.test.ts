// planChunks, checkChunkRanges and ChunkProgress: pure, no browser. Hostile inputs fail with typed codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFxError } from '../../src/runtime/errors.js';
import {
  ChunkProgress,
  checkChunkRanges,
  DEFAULT_MIN_CHUNK_FRAMES,
  planChunks,
  RenderErrorCode,
} from '../../src/render/index.js';

const ranges = (plan: { from: number; to: number }[]) => plan.map(({ from, to }) => [from, to]);
const throwsCode = (run: () => unknown, code: string) =>
  assert.throws(run, (error) => isFxError(error, code), `expected ${code}`);

test('as many chunks as workers, of near-equal size, tiling every frame', () => {
  assert.deepEqual(ranges(planChunks(600, 2)), [
    [0, 300],
    [300, 600],
  ]);
  assert.deepEqual(ranges(planChunks(30, 4, { minChunkFrames: 1 })), [
    [0, 7],
    [7, 15],
    [15, 22],
    [22, 30],
  ]);
  assert.deepEqual(
    planChunks(1000, 3, { chunksPerWorker: 2, minChunkFrames: 10 }).map((chunk) => chunk.index),
    [0, 1, 2, 3, 4, 5],
  );
});

test('a render shorter than two minimum chunks is not split; fewer chunks rather than tiny ones', () => {
  assert.deepEqual(ranges(planChunks(2 * DEFAULT_MIN_CHUNK_FRAMES - 1, 8)), [[0, 2 * DEFAULT_MIN_CHUNK_FRAMES - 1]]);
  assert.deepEqual(ranges(planChunks(1, 4)), [[0, 1]]);
  assert.equal(planChunks(3 * DEFAULT_MIN_CHUNK_FRAMES, 8).length, 3);
  assert.equal(planChunks(100, 8, { minChunkFrames: 30 }).length, 3);
});

test('every plan passes checkChunkRanges', () => {
  for (const frames of [1, 2, 7, 149, 150, 301, 36_000])
    for (const workers of [1, 2, 3, 7])
      checkChunkRanges(planChunks(frames, workers, { minChunkFrames: 1, chunksPerWorker: 3 }), frames);
});

test('planChunks refuses frame counts, worker counts and options out of range', () => {
  for (const frames of [0, -1, 1.5, Number.NaN, Infinity, '10', null, 86_400 * 240 + 1])
    throwsCode(() => planChunks(frames as number, 2), RenderErrorCode.chunkPlanInvalid);
  for (const workers of [0, -2, 2.5, undefined, 1025])
    throwsCode(() => planChunks(100, workers as number), RenderErrorCode.chunkPlanInvalid);
  for (const options of [
    { minChunkFrames: 0 },
    { minChunkFrames: 'x' },
    { chunksPerWorker: 0 },
    { chunksPerWorker: 65 },
  ])
    throwsCode(() => planChunks(100, 2, options as object), RenderErrorCode.chunkPlanInvalid);
});

test('checkChunkRanges refuses empty, overlapping, gapped, reversed and short lists', () => {
  const bad: [unknown, number][] = [
    [[], 10],
    ['0-10', 10],
    [
      [
        { from: 0, to: 5 },
        { from: 4, to: 10 },
      ],
      10,
    ],
    [
      [
        { from: 0, to: 5 },
        { from: 6, to: 10 },
      ],
      10,
    ],
    [
      [
        { from: 5, to: 10 },
        { from: 0, to: 5 },
      ],
      10,
    ],
    [
      [
        { from: 0, to: 0 },
        { from: 0, to: 10 },
      ],
      10,
    ],
    [[{ from: 0, to: 5.5 }], 10],
    [[{ from: 0, to: 5 }], 10],
    [[{ from: 0, to: 12 }], 10],
    [[null], 10],
  ];
  for (const [list, frames] of bad)
    throwsCode(() => checkChunkRanges(list as never, frames), RenderErrorCode.chunkRangesInvalid);
});

test('ChunkProgress sums the frames done per chunk, and follows a chunk that starts again', () => {
  const progress = new ChunkProgress(planChunks(30, 3, { minChunkFrames: 1 }));
  assert.equal(progress.framesTotal, 30);
  progress.update(0, { framesDone: 10 });
  assert.equal(progress.update(2, { framesDone: 4 }), 14);
  assert.equal(progress.update(2, { framesDone: 0 }), 10, 'chunk 2 retried from scratch');
  assert.equal(progress.update(7, { framesDone: 99 }), 10, 'an unknown chunk index is ignored');
});
