/**
 * Where a seek to `seconds` lands: clamped to [0, duration] (anything not finite is 0) and rounded to the frame grid.
 * The frame seeks there; the host works the landing out with the same rule rather than believe the frame's report.
 */
export function seekTarget(seconds: number, duration: number, fps: number): number {
  const clamped = Math.min(Math.max(Number.isFinite(seconds) ? seconds : 0, 0), duration);
  return Math.round(clamped * fps) / fps;
}
