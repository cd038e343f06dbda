import { COMPOSITION_BACKDROP } from '../../constants.js';
/** Where the composition goes in a capture: scaled to fit and centred, letterboxed as the renderer's encoder pads. */
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** `content` (CSS pixels) fitted inside `output` (device pixels), as `outputGeometry` in src/render/options.ts scales. */
export function placeInto(
  content: { readonly width: number; readonly height: number },
  output: { readonly width: number; readonly height: number },
): Placement {
  const scale = Math.min(output.width / content.width, output.height / content.height);
  const width = content.width * scale;
  const height = content.height * scale;
  return { x: (output.width - width) / 2, y: (output.height - height) / 2, width, height };
}

/** A canvas of the output's size, black where the composition does not cover it (the encoder's bars are black). */
/** Starts a picture as the renderer's page does: transparent for formats with alpha, else the preview's backdrop. */
export function clearToBackdrop(context: CanvasRenderingContext2D, transparent: boolean): void {
  const { width, height } = context.canvas;
  context.clearRect(0, 0, width, height);
  if (transparent) return;
  const { r, g, b } = COMPOSITION_BACKDROP;
  context.fillStyle = `rgb(${r} ${g} ${b})`;
  context.fillRect(0, 0, width, height);
}

export function outputCanvas(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D context for the capture canvas');
  return [canvas, context];
}
