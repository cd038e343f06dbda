import type { RenderResolution } from '../../render/types.js';

/** Billing multiplier of 4k output (specification, section 8). */
export const RESOLUTION_MULTIPLIER: Record<RenderResolution, number> = { '1080p': 1, '4k': 1.5 };
/** One credit buys one second of output at 30 frames per second. */
const FRAMES_PER_CREDIT = 30;

/**
 * Credits of a completed render: seconds of output × (fps / 30) × the resolution multiplier — i.e. frames / 30
 * × multiplier — rounded up to 0.01. Failed renders cost nothing.
 */
export function creditsFor(frames: number, resolution: RenderResolution): number {
  const raw = (frames / FRAMES_PER_CREDIT) * RESOLUTION_MULTIPLIER[resolution];
  return Math.ceil(Math.round(raw * 1e6) / 1e4) / 100;
}
