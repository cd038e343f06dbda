import { ASPECT_RATIOS, type AspectRatio } from './render-values.js';

/** The preset shape closest to a composition's own width and height (compared as log ratios, so 2:1 and 1:2 are as far from 1:1). */
export function detectAspectRatio(width: number, height: number): AspectRatio {
  const ratio = Math.log(width / height);
  const distance = (candidate: AspectRatio) => {
    const [w, h] = candidate.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - ratio);
  };
  return ASPECT_RATIOS.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best), '16:9');
}

/** The ratio of a composition's declared size, or `16:9` when it declares none (or no metadata is known). */
export function aspectRatioOf(size: { readonly width?: number; readonly height?: number } | undefined): AspectRatio {
  return size?.width && size.height ? detectAspectRatio(size.width, size.height) : '16:9';
}
