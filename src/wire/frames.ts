/**
 * Which frames of a composition a render outputs — the whole timeline, a `range` of it, or one still at `time` —
 * and which one is its thumbnail, on the frame grid of `fps`. One rule for the service's submit check, the
 * client's check before upload and the renderer, so what is refused early is what the render would refuse.
 */
import { ErrorCode } from './constants.js';
import { frameCount, frameIndex } from './frame-grid.js';
import type { RenderFormat, RequestProblem, TimeRange } from './render-request.js';

export { frameCount, frameIndex };
import { isStillFormat } from './render-request.js';

/**
 * Where a still without `time` is taken, as a share of the duration: the middle, as `<fx-composition>`'s poster
 * (`poster-time` 50 %), since most compositions have animated in by then while t = 0 is often empty.
 */
export const DEFAULT_STILL_TIME_SHARE = 0.5;
/** A video's thumbnail without `thumbnail_time`: at 1 s, or half-way through a shorter output. */
const DEFAULT_THUMBNAIL_SECONDS = 1;

/** Frames `[from, to)` of the composition's timeline, and the thumbnail's (within them). */
export interface OutputFrames {
  readonly from: number;
  readonly to: number;
  readonly thumbnail: number;
}

export interface FrameRequest {
  readonly format: RenderFormat;
  readonly time?: number | null | undefined;
  readonly thumbnail_time?: number | null | undefined;
  readonly range?: TimeRange | null | undefined;
}

const seconds = (value: number) => `${Number(value.toFixed(3))} s`;

/**
 * The output's frames for a composition of `duration` seconds, or why the request does not fit it:
 * `time_outside_duration` (a still's `time` or the `thumbnail_time` outside what is rendered) or
 * `range_outside_duration`.
 */
export function outputFrames(
  duration: number,
  fps: number,
  request: FrameRequest,
): { frames: OutputFrames } | { problem: RequestProblem } {
  const total = frameCount(duration, fps);
  const outside = (param: string, message: string) => ({
    problem: {
      code: param === 'range' ? ErrorCode.rangeOutsideDuration : ErrorCode.timeOutsideDuration,
      param,
      message: `${message}; the composition lasts ${seconds(duration)} (${total} frames at ${fps} fps)`,
    },
  });
  if (isStillFormat(request.format)) {
    const index =
      request.time == null
        ? Math.min(total - 1, frameIndex(duration * DEFAULT_STILL_TIME_SHARE, fps))
        : frameIndex(request.time, fps);
    if (index >= total) return outside('time', `"time" ${seconds(request.time!)} is at or past the end`);
    return { frames: { from: index, to: index + 1, thumbnail: index } };
  }
  const from = request.range ? frameIndex(request.range.start, fps) : 0;
  const to = request.range ? frameIndex(request.range.end, fps) : total;
  if (to > total || from >= to) {
    return outside(
      'range',
      `"range" ${seconds(request.range!.start)}–${seconds(request.range!.end)} ends past the end`,
    );
  }
  if (request.thumbnail_time != null) {
    const index = frameIndex(request.thumbnail_time, fps);
    if (index < from || index >= to) {
      const rendered = request.range ? ` of the range ${seconds(from / fps)}–${seconds(to / fps)}` : '';
      return outside(
        'thumbnail_time',
        `"thumbnail_time" ${seconds(request.thumbnail_time)} is outside the output${rendered}`,
      );
    }
    return { frames: { from, to, thumbnail: index } };
  }
  const frames = to - from;
  const offset = Math.min(frames - 1, frameIndex(Math.min(DEFAULT_THUMBNAIL_SECONDS, frames / fps / 2), fps));
  return { frames: { from, to, thumbnail: from + offset } };
}
