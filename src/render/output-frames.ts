import { ErrorCode } from '../wire/constants.js';
import { outputFrames, type OutputFrames } from '../wire/frames.js';
import { RenderErrorCode, renderError } from './errors.js';
import type { CheckedOptions } from './options.js';

/** The wire's names in its messages, said as the renderer's options. */
const OPTION_NAMES: Record<string, string> = { thumbnail_time: 'thumbnailTime' };

/**
 * The frames the render outputs and its thumbnail, by the one rule of src/wire/frames.ts (the service's submit
 * check and the client use it too), once the duration is known; a `time`, `thumbnailTime` or `range` outside the
 * composition fails with the wire's code (`time_outside_duration`, `range_outside_duration`), before any capture.
 */
export function renderOutputFrames(checked: CheckedOptions, duration: number): OutputFrames {
  const answer = outputFrames(duration, checked.fps, {
    format: checked.format,
    time: checked.time,
    thumbnail_time: checked.thumbnailTime,
    range: checked.range,
  });
  if ('frames' in answer) return answer.frames;
  const { problem } = answer;
  const message = problem.message.replace(/"(\w+)"/, (quoted, name: string) =>
    name in OPTION_NAMES ? `"${OPTION_NAMES[name]}"` : quoted,
  );
  throw renderError(
    problem.code === ErrorCode.rangeOutsideDuration
      ? RenderErrorCode.rangeOutsideDuration
      : RenderErrorCode.timeOutsideDuration,
    message,
  );
}
