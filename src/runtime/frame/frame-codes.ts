/**
 * Codes the in-frame runtime reports itself (the rest come from src/runtime's tables). DOM-free, so Node code and
 * tests may import it without a browser.
 */
export const FrameCode = {
  /** A script of the composition threw, or left a promise rejection unhandled; an `error` event of the element. */
  scriptError: 'script_error',
  /** A font value's source is not an allowed font URL; the face is not added. */
  fontSourceRefused: 'font_source_refused',
} as const;
export type FrameCode = (typeof FrameCode)[keyof typeof FrameCode];
