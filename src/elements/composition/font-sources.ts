import { blobToDataUrl, isRecord, parseUrl } from '../../runtime/data.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { FONT_CONTENT_TYPE, fontFileType } from '../../runtime/font-files.js';
import { issue, type Issue } from '../../runtime/issues.js';

/**
 * Font variables may name a font file (`{ name, source }`). The composition frame has an opaque origin, so it
 * can only load fonts served with CORS headers; the host page can load the ones its own origin serves. So the
 * host fetches each source once and hands the frame a `data:` URL instead.
 *
 * The host fetches on behalf of untrusted values and an untrusted composition, so it fetches only sources of
 * declared font variables, never sends cookies, and hands over only bytes that are a font file: anything else
 * (an account page, a JSON API) would otherwise be a credentialed read for the frame.
 */
export const FontSourceIssueCode = {
  notFont: 'font_source_not_font',
} as const;

/** Bigger fonts exist (CJK), but none a preview should wait for; the frame may still load such a URL itself. */
const FONT_MAX_BYTES = 16 * 1024 * 1024;

/** The `data:` URL of a fetched font, the reason it was refused, or `undefined` when it could not be fetched. */
type Fetched = { readonly data: string } | { readonly refused: string } | undefined;

const cache = new Map<string, Promise<Fetched>>();

/** Requests a font file: no cookies or HTTP auth, whatever the origin. */
const fontRequest = (url: string) => fetch(url, { credentials: 'omit' });

/** The font file in `response`, or why it is not one (by content type, size and leading bytes). */
async function processFontResponse(response: Response): Promise<Fetched> {
  if (!response.ok) return undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!FONT_CONTENT_TYPE.test(type)) return { refused: `a font file, got content type "${type.slice(0, 60)}"` };
  if (Number(response.headers.get('content-length') ?? 0) > FONT_MAX_BYTES)
    return { refused: `at most ${FONT_MAX_BYTES} bytes` };
  const blob = await response.blob();
  if (blob.size > FONT_MAX_BYTES) return { refused: `at most ${FONT_MAX_BYTES} bytes, got ${blob.size}` };
  const fontType = await fontFileType(blob);
  if (!fontType) return { refused: 'a woff, woff2, ttf, otf or ttc file, got other bytes' };
  // Typed by its bytes whatever the server said, so the frame never gets a `data:` URL of another kind.
  return { data: await blobToDataUrl(new Blob([blob], { type: fontType })) };
}

function fetchFont(url: string): Promise<Fetched> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fontRequest(url)
      .then(processFontResponse)
      .catch(() => undefined);
    cache.set(url, pending);
  }
  return pending;
}

type FontFile = { name: string; source: string };

/** A font value naming a file that is not inlined yet. */
const isFontFile = (value: unknown): value is FontFile =>
  isRecord(value) &&
  typeof value.name === 'string' &&
  typeof value.source === 'string' &&
  !value.source.startsWith('data:');

/** Ids of the declared font variables: the only values whose sources the host fetches. */
const fontIds = (declarations: readonly VariableDeclaration[]) =>
  declarations.filter((declaration) => declaration.type === 'font').map((declaration) => declaration.id);

/** True when a declared font variable's value names a file to inline (the rest can go to the frame as they are). */
export const hasFontSources = (
  values: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
): boolean => fontIds(declarations).some((id) => Object.hasOwn(values, id) && isFontFile(values[id]));

export interface InlinedFonts {
  readonly values: Record<string, unknown>;
  /** Sources refused because they were not font files (their values went on without a `data:` source). */
  readonly issues: Issue[];
}

/**
 * A copy of `values` where the source of every declared font variable the host can fetch is a `data:` URL. Other
 * values, sources that cannot be fetched and refused ones stay as they were: the frame may load them itself, from
 * its opaque origin (without cookies, and only with CORS).
 */
export async function inlineFontSources(
  values: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  base: string,
): Promise<InlinedFonts> {
  const inlined = { ...values };
  const issues: Issue[] = [];
  const pending = fontIds(declarations).map(async (id) => {
    const value = values[id];
    if (!Object.hasOwn(values, id) || !isFontFile(value)) return;
    const url = parseUrl(value.source, base);
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return;
    const fetched = await fetchFont(url.href);
    if (fetched && 'data' in fetched) inlined[id] = { ...value, source: fetched.data };
    if (fetched && 'refused' in fetched) {
      issues.push(
        issue(
          FontSourceIssueCode.notFont,
          [id, 'source'],
          `"source" of font variable "${id}" must be ${fetched.refused}`,
        ),
      );
    }
  });
  await Promise.all(pending);
  return { values: inlined, issues };
}
