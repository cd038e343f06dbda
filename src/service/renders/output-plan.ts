import { outputGeometry } from '../../render/options.js';
import type { Issue } from '../../runtime/issues.js';
import { issue } from '../../runtime/issues.js';
import type { CompositionMetadata } from '../../runtime/metadata.js';
import { outputFrames } from '../../wire/frames.js';
import { RenderWarningCode } from '../../wire/constants.js';
import { isStillFormat } from '../../wire/render-request.js';
import { ServiceError } from '../errors.js';
import { creditsFor } from './billing.js';
import type { RenderOutput, RenderRequest } from './render-types.js';

export { RenderWarningCode };

/** Where a GIF is large enough to warn of (openapi.yaml `format`): 10 MB. */
export const GIF_LARGE_BYTES = 10_000_000;
/**
 * Bytes a GIF takes per pixel and frame, for the `gif_large` estimate: the larger of the renderer's measured figures
 * (src/render/README.md: 0.060 for the 1080p reference composition, 0.084 at 720p, 0.011 for flat colours), so the
 * warning comes early rather than late.
 */
export const GIF_BYTES_PER_PIXEL_FRAME = 0.085;

/**
 * The viewport the renderer compiles an entry without `data-width` / `data-height` at (src/render/prepare.ts); with
 * a resolution and an aspect ratio, as the service always gives, only the shape of it matters.
 */
const UNDECLARED_SIZE = { width: 1920, height: 1080 } as const;

/** What a render of `request` will output, known at submit when the entry declares its duration. */
export interface OutputPlan {
  /** Null when the duration comes from the timeline (known only once it runs). */
  readonly output: RenderOutput | null;
  readonly credits: number | null;
  /** `gif_large`, when it applies. */
  readonly warnings: Issue[];
}

/**
 * The output's size, frames, start and cost, by the one frame rule of src/wire/frames.ts and the renderer's
 * geometry (`outputGeometry`). Refuses a `time`, `thumbnail_time` or `range` that does not fit the declared
 * duration (422 `time_outside_duration`, `range_outside_duration`), as the render would.
 */
export function planOutput(
  request: Pick<RenderRequest, 'format' | 'fps' | 'resolution' | 'aspect_ratio' | 'time' | 'thumbnail_time' | 'range'>,
  composition: Pick<CompositionMetadata, 'width' | 'height' | 'duration'>,
): OutputPlan {
  if (composition.duration === undefined) return { output: null, credits: null, warnings: [] };
  const planned = outputFrames(composition.duration, request.fps, request);
  if ('problem' in planned) {
    const { code, message, param } = planned.problem;
    throw new ServiceError(code, message, { param });
  }
  const { from, to } = planned.frames;
  const frames = to - from;
  const { width, height } = outputGeometry(
    { width: composition.width ?? UNDECLARED_SIZE.width, height: composition.height ?? UNDECLARED_SIZE.height },
    { resolution: request.resolution, aspectRatio: request.aspect_ratio },
  );
  const output: RenderOutput = {
    width,
    height,
    frames,
    duration: isStillFormat(request.format) ? 0 : frames / request.fps,
    start: from / request.fps,
  };
  const warnings: Issue[] = [];
  const estimate = width * height * frames * GIF_BYTES_PER_PIXEL_FRAME;
  if (request.format === 'gif' && estimate > GIF_LARGE_BYTES) {
    warnings.push(
      issue(
        RenderWarningCode.gifLarge,
        ['format'],
        `the GIF is estimated at ${(estimate / 1e6).toFixed(1)} MB (${width}×${height}, ${frames} frames), above ${GIF_LARGE_BYTES / 1e6} MB: mail clients clip or refuse larger mails; lower "fps", shorten it with "range", or send a video`,
        'warning',
      ),
    );
  }
  return { output, credits: creditsFor(frames, request.resolution), warnings };
}
