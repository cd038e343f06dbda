/**
 * What a composition may make the compiler read. The compiler runs in the host page (or the renderer's compile
 * page) and inlines what the composition names — sub-compositions, stylesheets, sub-composition scripts, fonts —
 * into a frame the composition's scripts can read. Without rules that hands an untrusted composition whatever the
 * host's network position can fetch (intranet pages, IP-restricted or capability URLs, APIs whose CORS list names
 * the host), which is exactly what the frame's opaque origin is there to deny. So:
 *
 * - **Where:** only files under the entry's own folder (its directory tree), plus the folders the host lists in
 *   `allowCompositionReadsUnder`. The entry is the host's choice and is not checked. An entry at the root of an
 *   origin makes the whole origin its tree: serve compositions from a folder of their own. A markup entry
 *   (`{ html, url }`, the element's `srcdoc`) stands at its `url`: for `<fx-composition srcdoc>` that is the host
 *   page, so its tree is the page's folder. A `blob:` entry has no folder: it may read only what the list names.
 *   `file:` trees work like http ones (same host, path under the folder). Redirects are followed and the final URL
 *   must be inside too. `data:` stylesheets, scripts and fonts read nothing of the host and are allowed.
 * - **What:** each role takes its own content types, checked on the response's `Content-Type` essence:
 *   sub-compositions `text/html`, stylesheets `text/css`, scripts a JavaScript type; a missing type or
 *   `application/octet-stream` is refused for these (whatever the scheme: a custom `fetch` serving `file:` or a
 *   host-made `blob:` must label them). Fonts are checked by their first bytes (TrueType, OpenType, collection,
 *   WOFF, WOFF2), with the type only needing not to name something else, since font hosts often answer
 *   `application/octet-stream` or nothing. Images (`<img crossorigin>`, which the frame's opaque origin could
 *   only load with CORS) take an `image/…` type; they become `data:` URLs, as readable as any image they show.
 *
 * The frame itself may still load what the web lets any page load (a stylesheet or font the compiler left as a URL,
 * images, media): those requests come from its opaque origin, under the browser's own rules.
 */
import { CompileIssueCode } from './codes.js';
import { FxError } from '../errors.js';
import { parseUrl } from '../data.js';
import { FONT_CONTENT_TYPE, fontFileType } from '../font-files.js';

/** Why a file is fetched: it decides the credentials sent, the types accepted and the error codes. */
export type ReadRole = 'entry' | 'sub' | 'stylesheet' | 'script' | 'font' | 'image';

const JAVASCRIPT_TYPES = [
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
];
/** Content-type essences a text role accepts. */
const TEXT_TYPES: Readonly<Record<'sub' | 'stylesheet' | 'script', ReadonlySet<string>>> = {
  sub: new Set(['text/html']),
  stylesheet: new Set(['text/css']),
  script: new Set(JAVASCRIPT_TYPES),
};
/** What the role is called in messages. */
const ROLE_NAMES: Readonly<Record<ReadRole, string>> = {
  entry: 'entry',
  sub: 'sub-composition',
  stylesheet: 'stylesheet',
  script: 'script',
  font: 'font',
  image: 'image',
};
const HIERARCHICAL = new Set(['http:', 'https:', 'file:']);
/** Encoded `/` and `\`: a server that decodes them before resolving `..` would walk out of the folder. */
const ENCODED_SEPARATOR = /%2f|%5c/i;

/** A place a composition may read from: a folder (its files and subfolders), or one exact `blob:` URL. */
type Place = { readonly folder: URL } | { readonly blob: string };

/** The places a composition may read from; built once per compile. */
export class ReadScope {
  readonly #places: readonly Place[];

  /**
   * @param entryUrl the entry's URL (its folder is the default place).
   * @param allowed `CompileOptions.allowCompositionReadsUnder`, resolved against `base`.
   */
  constructor(entryUrl: string, allowed: readonly (string | URL)[], base: string) {
    const places: Place[] = [];
    const entry = new URL(entryUrl);
    if (HIERARCHICAL.has(entry.protocol)) places.push({ folder: bare(new URL('./', entry)) });
    for (const raw of allowed) {
      const url = parseUrl(String(raw), base);
      if (!url || !(HIERARCHICAL.has(url.protocol) || url.protocol === 'blob:')) {
        throw new FxError(
          CompileIssueCode.optionsInvalid,
          `"allowCompositionReadsUnder" entries must be http(s), file: or blob: URLs, got ${JSON.stringify(String(raw)).slice(0, 120)}`,
        );
      }
      if (url.protocol === 'blob:') places.push({ blob: bare(url).href });
      else places.push({ folder: bare(url.pathname.endsWith('/') ? url : new URL(`${url.pathname}/`, url)) });
    }
    this.#places = places;
  }

  /** True when the composition may have `url` read. */
  allows(url: URL): boolean {
    if (url.protocol === 'data:') return true;
    if (url.username !== '' || url.password !== '' || ENCODED_SEPARATOR.test(url.pathname)) return false;
    const href = bare(url).href;
    return this.#places.some((place) =>
      'blob' in place
        ? place.blob === href
        : place.folder.protocol === url.protocol &&
          place.folder.host === url.host &&
          url.pathname.startsWith(place.folder.pathname),
    );
  }

  /** Throws `url_outside_scope` unless `url` may be read for `role` (the entry always may). */
  check(url: string, role: ReadRole): void {
    if (role === 'entry') return;
    const parsed = parseUrl(url);
    if (parsed && this.allows(parsed)) return;
    throw new FxError(
      CompileIssueCode.urlOutsideScope,
      `the ${ROLE_NAMES[role]} "${clip(url)}" is outside the folders this composition may read; see "allowCompositionReadsUnder"`,
    );
  }
}

/** `url` without query and fragment. */
function bare(url: URL): URL {
  const copy = new URL(url.href);
  copy.search = '';
  copy.hash = '';
  return copy;
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 197)}...` : text);

/** The lowercase essence of a `Content-Type` header (`''` when there is none). */
function typeEssence(header: string | null): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Throws `content_type_refused` when a response's type does not fit its role. Called before the body is read;
 * fonts are checked again on their bytes ({@link checkFontBytes}).
 */
export function checkType(response: Response, url: string, role: ReadRole): void {
  if (role === 'entry') return;
  const essence = typeEssence(response.headers.get('content-type'));
  const accepted =
    role === 'font'
      ? FONT_CONTENT_TYPE.test(essence)
      : role === 'image'
        ? IMAGE_TYPE.test(essence)
        : TEXT_TYPES[role].has(essence);
  if (!accepted) {
    throw new FxError(
      CompileIssueCode.typeRefused,
      `the ${ROLE_NAMES[role]} "${clip(url)}" answered ${essence === '' ? 'no content type' : `"${essence}"`}; ${expectedTypes(role)}`,
    );
  }
}

/** `image/<subtype>`: the types an `<img>` inlined as a `data:` URL may have. */
const IMAGE_TYPE = /^image\/[\w.+-]+$/;

function expectedTypes(role: Exclude<ReadRole, 'entry'>): string {
  if (role === 'image') return 'expected an image type';
  return role === 'font'
    ? 'expected a font type'
    : `expected ${[...TEXT_TYPES[role]]
        .slice(0, 2)
        .map((type) => `"${type}"`)
        .join(' or ')}`;
}

/** Throws `content_type_refused` unless `file` starts like a font file. */
export async function checkFontBytes(file: Blob, url: string): Promise<void> {
  if ((await fontFileType(file)) === undefined) {
    throw new FxError(
      CompileIssueCode.typeRefused,
      `the font "${clip(url)}" is not a font file (TrueType, OpenType, WOFF or WOFF2)`,
    );
  }
}
