import { blobToDataUrl, isRecord, parseUrl } from '../runtime/data.js';

/**
 * Font variables may name a font file (`{ name, source }`). The composition frame has an opaque origin, so it
 * can only load fonts served with CORS headers; the host page can load the ones its own origin serves. So the
 * host fetches each source once and hands the frame a `data:` URL instead.
 */
const cache = new Map<string, Promise<string | undefined>>();

function toDataUrl(url: string): Promise<string | undefined> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url, { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.blob() : undefined))
      .then((blob) => blob && blobToDataUrl(blob))
      .catch(() => undefined);
    cache.set(url, pending);
  }
  return pending;
}

type FontFile = { name: string; source: string };

/** A font value naming a file that is not inlined yet. */
const isFontFile = (value: unknown): value is FontFile =>
  isRecord(value) && typeof value.name === 'string' && typeof value.source === 'string' && !value.source.startsWith('data:');

/** True when some value names a font file to inline (the rest can go to the frame as they are). */
export const hasFontSources = (values: Readonly<Record<string, unknown>>): boolean => Object.values(values).some(isFontFile);

/** `value` with its font file as a `data:` URL, when it names one the host can fetch. */
async function inlineFontSource(value: unknown, base: string): Promise<unknown> {
  if (!isFontFile(value)) return value;
  const url = parseUrl(value.source, base);
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return value;
  const data = await toDataUrl(url.href);
  return data ? { ...value, source: data } : value;
}

/** A copy of `values` where every font source the host can fetch is a `data:` URL (others stay as they were). */
export async function inlineFontSources(values: Readonly<Record<string, unknown>>, base: string): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(values).map(async ([id, value]) => [id, await inlineFontSource(value, base)] as const));
  return Object.fromEntries(entries);
}
