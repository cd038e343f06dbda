/**
 * Names the composition format relies on, said once. Nothing else spells these as string literals.
 */
export const Attr = {
  compositionId: 'data-composition-id',
  compositionSrc: 'data-composition-src',
  compositionVariables: 'data-composition-variables',
  variableValues: 'data-variable-values',
  width: 'data-width',
  height: 'data-height',
  duration: 'data-duration',
  start: 'data-start',
  trackIndex: 'data-track-index',
  hasAudio: 'data-has-audio',
  colorGrading: 'data-color-grading',
  varSrc: 'data-var-src',
  varText: 'data-var-text',
  /** On a `data-var-text` element: `shrink` lowers its font size until the text fits (see fit.ts). */
  varFit: 'data-var-fit',
  /** The smallest size `data-var-fit` may shrink to: `12px`, or a share of the authored size (`0.5`). */
  varFitMin: 'data-var-fit-min',
  /** `none` on the root or `<html>` turns off the HyperFrames-named globals (see `HYPERFRAMES_GLOBALS`). */
  compat: 'data-fx-compat',
} as const;
export type Attr = (typeof Attr)[keyof typeof Attr];

/** The values `data-var-fit` takes. */
export const FitMode = {
  shrink: 'shrink',
} as const;
export type FitMode = (typeof FitMode)[keyof typeof FitMode];

/** The variable types a declaration may name. */
export const VariableType = {
  string: 'string',
  number: 'number',
  color: 'color',
  boolean: 'boolean',
  enum: 'enum',
  font: 'font',
  image: 'image',
} as const;
export type VariableType = (typeof VariableType)[keyof typeof VariableType];

/** Tags on which `data-var-src` is honoured: media that cannot execute script. */
export const BINDABLE_SRC_TAGS: ReadonlySet<string> = new Set(['img', 'video', 'audio', 'source']);

/**
 * Tags on which `data-var-text` is refused, in any namespace: their text is code (`script`, `style`), or is written
 * back unescaped when the document is serialized (`xmp`, `iframe`, `noembed`, `noframes`, `noscript`), so a value
 * saved with `outerHTML` and parsed again becomes markup. Every other element shows, escapes or ignores its text.
 */
export const TEXT_REFUSED_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
]);

/** Characters removed from values applied as CSS custom properties (and newlines, and `\` so escapes cannot rebuild them). */
export const CSS_REFUSED_CHARACTERS = /[;{}<>\\\r\n\f]/g;

/** `#rrggbb`, the one color notation variables accept. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * What shows where a composition paints nothing (no background on its page or root): black, in the preview (the
 * element's backdrop) and in a render to an opaque format alike. Formats with alpha keep those pixels transparent.
 */
export const COMPOSITION_BACKDROP = { r: 0, g: 0, b: 0 } as const;
