/**
 * In-browser capture (issue 33), the names both ends use: the frame rasterises itself with one of the rasterisers,
 * and refuses, before anything is captured, what the chosen one cannot draw faithfully. DOM-free, so the frame, the
 * host and Node tests share it.
 */

/** How the frame turns its document into pixels. */
export const CaptureRasteriser = {
  /** `<canvas layoutsubtree>` + `drawElementImage`: what the browser itself paints (Chromium behind a flag). */
  htmlInCanvas: 'html-in-canvas',
  /** The document as an SVG `foreignObject` image, its animated styles, images and fonts inlined. */
  foreignObject: 'foreign-object',
} as const;
export type CaptureRasteriser = (typeof CaptureRasteriser)[keyof typeof CaptureRasteriser];
/** What a caller may ask for: one rasteriser, or `auto` (HTML-in-Canvas where the browser has it). */
export type CaptureRasteriserChoice = CaptureRasteriser | 'auto';
export const CAPTURE_RASTERISERS: readonly CaptureRasteriser[] = Object.values(CaptureRasteriser);

/** Why the frame will not capture a composition with a rasteriser: each names what and where. */
export const CaptureRefusalCode = {
  /** An image (or background image) whose pixels the frame cannot read: cross-origin without CORS, not in the project. */
  crossOriginImage: 'capture_cross_origin_image',
  /** A WebGL canvas whose drawing buffer is not kept (`preserveDrawingBuffer: false`): its pixels are gone when read. */
  unreadableWebgl: 'capture_webgl_unreadable',
  /** An `<iframe>`, `<object>` or `<embed>` inside the composition: its document is not the frame's to draw. */
  nestedFrame: 'capture_nested_frame',
  /** A `<video>` whose frames the frame cannot read (cross-origin without CORS). */
  crossOriginVideo: 'capture_cross_origin_video',
  /** The rasteriser asked for is not in this browser (HTML-in-Canvas without its flag). */
  rasteriserUnavailable: 'capture_rasteriser_unavailable',
} as const;
export type CaptureRefusalCode = (typeof CaptureRefusalCode)[keyof typeof CaptureRefusalCode];

/** One thing a rasteriser cannot capture. */
export interface CaptureRefusal {
  readonly code: CaptureRefusalCode;
  readonly message: string;
  /** Where in the composition: a CSS-selector-like path of the element (`div#card > img:nth-of-type(2)`), or ''. */
  readonly where: string;
}

/** Why a frame that started capturing could not capture one frame. */
export const CaptureFailureCode = {
  /** The rasteriser threw, or produced no picture (a decode error of the SVG image, a lost canvas). */
  rasterFailed: 'capture_raster_failed',
  /** The frame's encoder failed (frames encoded in the frame). */
  encodeFailed: 'capture_encode_failed',
  /** `capture` before a `capture-start` that succeeded. */
  notStarted: 'capture_not_started',
} as const;
export type CaptureFailureCode = (typeof CaptureFailureCode)[keyof typeof CaptureFailureCode];

/** Bounds of the capture messages: a frame at most this many pixels a side, at most this many resources. */
export const CAPTURE_LIMITS = { maxSide: 8192, maxResources: 2000 } as const;
