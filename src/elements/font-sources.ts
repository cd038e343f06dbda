import { blobToDataUrl } from '../runtime/data.js';

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

const isFontValue = (value: unknown): value is { name: string; source: string } =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string' && typeof (value as { source?: unknown }).source === 'string';

/** A copy of `values` where every font source the host can fetch is a `data:` URL (others stay as they were). */
export async function inlineFontSources(values: Readonly<Record<string, unknown>>, base: string): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(values).map(async ([id, value]) => {
      if (!isFontValue(value) || value.source.startsWith('data:')) return [id, value] as const;
      let url: URL;
      try {
        url = new URL(value.source, base);
      } catch {
        return [id, value] as const;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return [id, value] as const;
      const data = await toDataUrl(url.href);
      return [id, data ? { ...value, source: data } : value] as const;
    }),
  );
  return Object.fromEntries(entries);
}
