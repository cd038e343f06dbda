import { FrameAttr } from '../frame-config.js';

/**
 * The frame's own rules, adopted before the composition's content is parsed (in the preview and the render alike).
 *
 * - A hidden clip's descendants too: an author's `visibility: visible` inside it must not leak through.
 * - Text laid out and rasterised with geometric precision (glyphs at subpixel positions, no hinting). Left to
 *   Chromium, a font size in an out-of-process frame was rasterised with or without subpixel positioning at
 *   random per page load (the demo's headline and subtitle moved by up to half a device pixel against the render:
 *   34.7, 36.7 or 39.8 dB); with this rule 39.8 every time. `:where` leaves any author rule the last word.
 */
export const FRAME_BASE_STYLE = `
[${FrameAttr.hidden}], [${FrameAttr.hidden}] * { visibility: hidden !important; }
:where(html) { text-rendering: geometricPrecision; }
`;
