/**
 * The one safety module: which URLs may become a media `src`, which tags may carry `data-var-src`, and how
 * values are made inert before they become CSS. Lint, bindings, the element and the service all call this.
 */
import { BINDABLE_SRC_TAGS, CSS_REFUSED_CHARACTERS } from './constants.js';

/** Protocols a media URL may use once parsed; `data:` is allowed only for `image/…` (checked separately). */
const SAFE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'blob:']);

// A base no real document has, so that a relative path parses to a known protocol for the check.
const CHECK_BASE = 'https://base.fx.invalid/';

/**
 * Returns the URL unchanged when it is safe to use as a media `src`, else `undefined`.
 * The string is parsed with `new URL` (against `base`, or a neutral https base), then the parsed protocol is
 * tested: `http:`, `https:`, `blob:`, relative paths and `data:image/…` pass; everything else
 * (`javascript:`, `vbscript:`, `data:text/html`, `file:`, unknown schemes) is refused, whatever the case,
 * whitespace or control characters the parser strips.
 */
export function safeMediaUrl(value: unknown, base: string | URL = CHECK_BASE): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    return undefined;
  }
  if (SAFE_PROTOCOLS.has(parsed.protocol)) return value;
  if (parsed.protocol === 'data:' && /^image\/[a-z0-9.+-]+[;,]/i.test(parsed.pathname)) return value;
  return undefined;
}

/**
 * True when `value` may be used as the `src` of an `img`, `video`, `audio` or `source` element.
 *
 * @example
 * isSafeMediaUrl('cat.png'); // true
 * isSafeMediaUrl(' JaVaScRiPt:alert(1)'); // false
 */
export function isSafeMediaUrl(value: unknown, base?: string | URL): boolean {
  return safeMediaUrl(value, base) !== undefined;
}

/** True for the tags `data-var-src` is honoured on (`img`, `video`, `audio`, `source`), any case. */
export function isBindableSrcTag(tagName: string): boolean {
  return BINDABLE_SRC_TAGS.has(tagName.toLowerCase());
}

/**
 * Makes a value inert for use as a CSS custom property: removes `;`, `{`, `}`, `<`, `>`, newlines, and `\`
 * (so a CSS escape cannot spell a removed character back).
 */
export function sanitizeCssValue(value: string): string {
  return value.replace(CSS_REFUSED_CHARACTERS, '');
}
