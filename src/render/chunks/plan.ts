import { RenderErrorCode, renderError } from '../errors.js';
import type { RenderProgress } from '../types.js';

/** Frames [from, to) of a composition: frame i shows time i / fps. */
export interface FrameRange {
  readonly from: number;
  readonly to: number;
}

export interface ChunkPlanOptions {
  /**
   * Fewest frames a chunk may have (default {@link DEFAULT_MIN_CHUNK_FRAMES}): each chunk pays a browser start,
   * a compile and a load (≈ 1–2 s here), so a render shorter than two of these is not split.
   */
  readonly minChunkFrames?: number;
  /**
   * Chunks per worker (default 1). More, smaller chunks balance uneven workers and make a retried chunk cheaper,
   * at one browser start each.
   */
  readonly chunksPerWorker?: number;
}

/** 5 s at 30 fps: about three times what a chunk's browser start, compile and load cost on the reference machine. */
export const DEFAULT_MIN_CHUNK_FRAMES = 150;
/** Most frames a render may have (`maxFrames`' upper bound: a day at 240 fps). */
const MAX_FRAMES = 86_400 * 240;
const MAX_WORKERS = 1024;
const MAX_CHUNKS_PER_WORKER = 64;

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw renderError(
      RenderErrorCode.chunkPlanInvalid,
      `"${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return value;
}

/**
 * Splits `frameCount` frames into contiguous ranges of near-equal size for `workerCount` workers: as many chunks
 * as workers (× `chunksPerWorker`), but none under `minChunkFrames`, so a short render stays one chunk.
 *
 * @example
 * planChunks(600, 2); // [{ index: 0, from: 0, to: 300 }, { index: 1, from: 300, to: 600 }]
 */
export function planChunks(
  frameCount: number,
  workerCount: number,
  options: ChunkPlanOptions = {},
): (FrameRange & { readonly index: number })[] {
  integer('frameCount', frameCount, 1, MAX_FRAMES);
  integer('workerCount', workerCount, 1, MAX_WORKERS);
  const minChunkFrames = integer('minChunkFrames', options.minChunkFrames ?? DEFAULT_MIN_CHUNK_FRAMES, 1, MAX_FRAMES);
  const perWorker = integer('chunksPerWorker', options.chunksPerWorker ?? 1, 1, MAX_CHUNKS_PER_WORKER);
  const count = Math.max(1, Math.min(workerCount * perWorker, Math.floor(frameCount / minChunkFrames)));
  return Array.from({ length: count }, (_, index) => ({
    index,
    from: Math.floor((index * frameCount) / count),
    to: Math.floor(((index + 1) * frameCount) / count),
  }));
}

/**
 * Checks that `ranges` tile frames [first, frameCount) exactly, in order: at least one, none empty, no overlap, no
 * gap (`first` is the first frame of a `range` render, else 0). Throws `chunk_ranges_invalid` naming the first
 * offending range.
 */
export function checkChunkRanges(ranges: readonly FrameRange[], frameCount: number, first = 0): void {
  const invalid = (message: string) => renderError(RenderErrorCode.chunkRangesInvalid, message);
  if (!Array.isArray(ranges) || ranges.length === 0) throw invalid('"chunks" must list at least one chunk');
  let next = first;
  ranges.forEach((range, index) => {
    const { from, to } = (range ?? {}) as Partial<FrameRange>;
    if (!Number.isInteger(from) || !Number.isInteger(to) || to! <= from!) {
      throw invalid(`chunk ${index} must have integer frames "from" < "to", got ${JSON.stringify({ from, to })}`);
    }
    if (from !== next) {
      const what = from! < next ? 'overlaps the one before' : 'leaves a gap after the one before';
      throw invalid(`chunk ${index} (frames ${from}–${to}) ${what}: it must start at frame ${next}`);
    }
    next = to!;
  });
  if (next !== frameCount) {
    const what = first > 0 ? 'the range ends at frame' : 'the composition has';
    throw invalid(`the chunks end at frame ${next}, ${what} ${frameCount}${first > 0 ? '' : ' frames'}`);
  }
}

/**
 * Sums the progress of a chunked render's chunks: feed each chunk's `onProgress` event with its index, read the
 * frames done over all chunks. A retried chunk starts again from 0, which the sum follows.
 */
export class ChunkProgress {
  readonly #done: number[];
  readonly framesTotal: number;

  constructor(ranges: readonly FrameRange[]) {
    this.#done = ranges.map(() => 0);
    this.framesTotal = ranges.reduce((sum, range) => sum + (range.to - range.from), 0);
  }

  /** Records chunk `index`'s progress; returns the frames done over all chunks. */
  update(index: number, progress: Pick<RenderProgress, 'framesDone'>): number {
    if (index in this.#done) this.#done[index] = progress.framesDone;
    return this.framesDone;
  }

  get framesDone(): number {
    return this.#done.reduce((sum, done) => sum + done, 0);
  }
}
