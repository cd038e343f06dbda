import type { CaptureRasteriser } from '../../capture-codes.js';

/** One way of turning the document, as it is now, into a picture of the capture's size. */
export interface Rasteriser {
  readonly name: CaptureRasteriser;
  /** The composition as it is at this instant (the caller seeked), scaled into the output and letterboxed. */
  capture(): Promise<ImageData>;
  /** Leaves the document as it was (HTML-in-Canvas moved the root). */
  dispose(): void;
}

/** What every rasteriser is started with. */
export interface CaptureTarget {
  readonly root: HTMLElement;
  /** The composition's CSS size. */
  readonly size: { readonly width: number; readonly height: number };
  /** The picture's size in device pixels. */
  readonly output: { readonly width: number; readonly height: number };
  /** What the composition leaves unpainted stays transparent (formats with alpha); else the preview's backdrop. */
  readonly transparent: boolean;
}
