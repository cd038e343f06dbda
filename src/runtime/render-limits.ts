/**
 * How long a render may be by default: the renderer's limits, which the reference service applies too. Here, at
 * the bottom, so lint can warn past them and the client refuse before it uploads, in the renderer's own terms.
 */
export const RENDER_LIMITS = {
  /** Longest root `data-duration`, in seconds. */
  maxDurationSeconds: 600,
  /** Most frames (duration × fps) of one render: 10 minutes at 60 fps. */
  maxFrames: 36_000,
} as const;

export interface LengthLimits {
  readonly maxDurationSeconds: number;
  readonly maxFrames: number;
}

/** Frames of a render as the renderer counts them: at least one, duration × fps rounded. */
export const framesOf = (duration: number, fps: number) => Math.max(1, Math.round(duration * fps));

/** Why `duration` seconds at `fps` is longer than `limits` allow, or `undefined`. `what` names the composition. */
export function lengthProblem(
  what: string,
  duration: number,
  fps: number,
  limits: LengthLimits = RENDER_LIMITS,
): string | undefined {
  if (duration > limits.maxDurationSeconds)
    return `${what} must last at most ${limits.maxDurationSeconds} s, got ${duration}`;
  const frames = framesOf(duration, fps);
  if (frames > limits.maxFrames)
    return `${what} must have at most ${limits.maxFrames} frames, got ${frames} (${duration} s at ${fps} fps); lower "fps" or shorten it`;
  return undefined;
}
