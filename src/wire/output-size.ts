/**
 * The size of a render's or an export's pictures: the composition's own (rounded up to even, as video encoders
 * need), or a preset when a resolution or an aspect ratio is asked for — the composition then fits inside it,
 * letterboxed. One rule for the server renderer (src/render/options.ts) and the in-browser export.
 */
import { detectAspectRatio } from './aspect-ratio.js';
import type { AspectRatio, RenderResolution } from './render-values.js';

/** Output sizes of the 1080p preset; 4k doubles them. */
const SIZES_1080P: Record<AspectRatio, { width: number; height: number }> = {
  '16:9': { width: 1920, height: 1080 },
  '9:16': { width: 1080, height: 1920 },
  '1:1': { width: 1080, height: 1080 },
};

export interface OutputSizeOptions {
  readonly resolution: RenderResolution | undefined;
  /** Default, with a resolution: the preset shape nearest the composition's. */
  readonly aspectRatio: AspectRatio | undefined;
}

/** Pixels of the output for a composition of `composition` CSS pixels (whole numbers). */
export function outputSize(
  composition: { readonly width: number; readonly height: number },
  { resolution, aspectRatio }: OutputSizeOptions,
): { width: number; height: number } {
  if (resolution === undefined && aspectRatio === undefined)
    return { width: even(composition.width), height: even(composition.height) };
  const preset = SIZES_1080P[aspectRatio ?? detectAspectRatio(composition.width, composition.height)];
  const factor = resolution === '4k' ? 2 : 1;
  return { width: preset.width * factor, height: preset.height * factor };
}

const even = (value: number) => 2 * Math.ceil(value / 2);
