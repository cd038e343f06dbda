/** The frame grid of a frame rate: which frame a time falls on, and how many frames a timeline holds. */

/** The frame `seconds` falls on: the nearest of the grid. */
export const frameIndex = (seconds: number, fps: number): number => Math.round(seconds * fps);
/** Frames of a timeline of `duration` seconds: round(duration × fps), at least one. */
export const frameCount = (duration: number, fps: number): number => Math.max(1, Math.round(duration * fps));
