/**
 * The one safety module: which URLs may become a media `src`, which tags may carry `data-var-src` and
 * `data-var-text`, and how
 * values are made inert before they become CSS. Lint, bindings, the element and the service all call this.
 */
import { BINDABLE_SRC_TAGS, CSS_REFUSED_CHARACTERS, TEXT_REFUSED_TAGS } from './constants.js';

/** Protocols a media URL may use once parsed; `data:` is allowed only for `image/…` (checked separately). */
const SAFE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'blob:']);

// A base no real document has, so that a relative path parses to a known protocol for the check.
const CHECK_BASE = 'https://base.fx.invalid/';

// Empty, whitespace or control characters only: such a `src` resolves to the document itself, not to media.
const BLANK = /^[\s\x00-\x1f]*$/;

/**
 * Returns the URL unchanged when it is safe to use as a media `src`, else `undefined`.
 * The string is parsed with `new URL` (against `base`, or a neutral https base), then the parsed protocol is
 * tested: `http:`, `https:`, `blob:`, relative paths and `data:` URLs whose MIME type is `image/…` pass;
 * everything else (`javascript:`, `vbscript:`, `data:text/html`, `file:`, unknown schemes, blank strings,
 * non-strings) is refused, whatever the case, whitespace or control characters the parser strips.
 */
export function safeMediaUrl(value: unknown, base: string | URL = CHECK_BASE): string | undefined {
  return checkUrl(value, base, (essence) => essence.startsWith('image/'));
}

/**
 * Returns the URL unchanged when it may be loaded as a font file (a font variable's `source`): the same rules as
 * {@link safeMediaUrl}, but `data:` URLs must carry a font MIME type (`font/…`, `application/font-…`, …).
 */
export function safeFontUrl(value: unknown, base: string | URL = CHECK_BASE): string | undefined {
  return checkUrl(value, base, (essence) =>
    /^(font\/|application\/(x-)?font-|application\/vnd\.ms-fontobject$)/.test(essence),
  );
}

function checkUrl(value: unknown, base: string | URL, allowsData: (essence: string) => boolean): string | undefined {
  if (typeof value !== 'string' || BLANK.test(value)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    return undefined;
  }
  if (SAFE_PROTOCOLS.has(parsed.protocol)) return value;
  if (parsed.protocol !== 'data:') return undefined;
  const essence = dataUrlMimeEssence(parsed);
  return essence !== undefined && allowsData(essence) ? value : undefined;
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
 * True for the tags `data-var-text` is honoured on: all but `script`, `style` and the raw-text elements of
 * `TEXT_REFUSED_TAGS`, any case and any namespace (a name rule no namespace trick gets around).
 */
export function isBindableTextTag(tagName: string): boolean {
  return !TEXT_REFUSED_TAGS.has(tagName.toLowerCase());
}

/**
 * Makes a value inert for use as a CSS custom property: removes `;`, `{`, `}`, `<`, `>`, newlines, and `\`
 * (so a CSS escape cannot spell a removed character back).
 */
export function sanitizeCssValue(value: string): string {
  return value.replace(CSS_REFUSED_CHARACTERS, '');
}

const BASE64_SUFFIX = /;\x20*base64$/i;
// The lookbehind starts the trailing match only at the start of a run: without it every inner run is rescanned (quadratic).
const ASCII_WHITESPACE_EDGES = /^[\t\n\f\r ]+|(?<![\t\n\f\r ])[\t\n\f\r ]+$/g;
// `type/subtype` of a MIME type; parameters after `;` never make parsing fail.
const MIME_ESSENCE = /^[\t\n\r ]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)[\t\n\r ]*(?:;|$)/;

/**
 * The MIME type (`type/subtype`, lowercase) a browser gives a parsed `data:` URL, following the WHATWG Fetch
 * "data: URL processor", or `undefined` when the URL cannot load at all. Checking what the browser will
 * decide, not a prefix of the text, is why `data: image/png,…` passes and `data:,image/png` does not.
 */
function dataUrlMimeEssence(url: URL): string | undefined {
  const input = url.href.slice('data:'.length).split('#', 1)[0] ?? '';
  const comma = input.indexOf(',');
  if (comma < 0) return undefined;
  let mimeType = input.slice(0, comma).replace(ASCII_WHITESPACE_EDGES, '');
  const base64 = BASE64_SUFFIX.exec(mimeType);
  if (base64) {
    if (!isForgivingBase64(percentDecode(input.slice(comma + 1)))) return undefined;
    mimeType = mimeType.slice(0, base64.index);
  }
  if (mimeType.startsWith(';')) mimeType = `text/plain${mimeType}`;
  const essence = MIME_ESSENCE.exec(mimeType);
  return essence ? `${essence[1]}/${essence[2]}`.toLowerCase() : 'text/plain';
}

// Bytes as Latin-1 characters; the URL serializer has already percent-encoded everything outside ASCII.
function percentDecode(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

// `atob` is the HTML "forgiving-base64 decode" the data: URL processor uses.
function isForgivingBase64(text: string): boolean {
  try {
    atob(text);
    return true;
  } catch {
    return false;
  }
}
