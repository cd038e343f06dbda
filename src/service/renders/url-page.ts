import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import { AddressRefusedError, outboundFetch } from '../network-guard.js';

export interface PageFetchOptions {
  /** Used where private addresses are allowed; elsewhere the page comes through `publicFetch` (see `outboundFetch`). */
  readonly fetch: typeof fetch;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly allowPrivateNetwork: boolean;
}

const MAX_REDIRECTS = 5;
const HTML_TYPES: ReadonlySet<string> = new Set(['', 'text/html', 'application/xhtml+xml']);
const failed = (message: string, cause?: unknown) =>
  new ServiceError(ErrorCode.urlFetchFailed, message, { param: 'url', cause });

/**
 * Fetches the HTML of a `url` render once, server-side: http(s) only, every redirect hop checked against the
 * private-network rule when it connects (to the addresses checked, so a host that re-resolves privately is never
 * reached), a size cap enforced while streaming, an overall timeout.
 */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<{ html: string; finalUrl: string }> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const fetchHop = outboundFetch(options.fetch, options.allowPrivateNetwork);
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw failed(`"url" redirected to a non-http(s) URL ${JSON.stringify(current.href)}`);
    let response: Response;
    try {
      response = await fetchHop(current, { redirect: 'manual', signal, headers: { accept: 'text/html' } });
    } catch (error) {
      if (error instanceof AddressRefusedError) {
        throw new ServiceError(
          ErrorCode.urlNotAllowed,
          `"url" must reach a public address, ${JSON.stringify(current.host)} does not`,
          { param: 'url' },
        );
      }
      throw failed(
        `"url" could not be fetched: ${signal.aborted ? `no answer within ${options.timeoutMs} ms` : (error as Error).message}`,
        error,
      );
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw failed(`"url" answered HTTP ${response.status}, expected 200`);
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!HTML_TYPES.has(type)) {
      await response.body?.cancel();
      throw failed(`"url" must serve HTML, got "${type}"`);
    }
    return { html: await readText(response, options.maxBytes, signal), finalUrl: current.href };
  }
  throw failed(`"url" redirected more than ${MAX_REDIRECTS} times`);
}

async function readText(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) throw failed(`"url" must serve at most ${maxBytes} bytes of HTML, got more`);
      text += decoder.decode(next.value, { stream: true });
    }
  } catch (error) {
    await reader?.cancel().catch(() => {});
    if (error instanceof ServiceError) throw error;
    throw failed(`"url" could not be read: ${signal.aborted ? 'timed out' : (error as Error).message}`, error);
  }
  return text + decoder.decode();
}

/**
 * The page as the renderer will load it from a local folder: with a `<base href>` to its origin URL, so its
 * relative assets and sub-compositions are fetched from there (unless the page sets its own base).
 */
export function withBaseHref(html: string, pageUrl: string): string {
  if (/<base[\s>]/i.test(html)) return html;
  const base = `<base href="${pageUrl.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`;
  // After the first of <head>, <html> or the doctype that is present, so the document keeps its mode.
  for (const tag of [/<head(\s[^>]*)?>/i, /<html(\s[^>]*)?>/i, /^\s*<!doctype[^>]*>/i]) {
    const found = tag.exec(html);
    if (found) return html.slice(0, found.index + found[0].length) + base + html.slice(found.index + found[0].length);
  }
  return base + html;
}
