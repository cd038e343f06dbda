import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pinnedLookup } from './egress-lookup.js';
import { addressRules, publicAddresses, type AddressRules } from './public-address.js';

/** The host of a user-given URL resolves to a private address, or to none: nothing was sent. */
export class AddressRefusedError extends Error {
  readonly code = 'address_not_public';

  constructor(readonly hostname: string) {
    super(`host ${JSON.stringify(hostname)} is not a public address`);
    this.name = 'AddressRefusedError';
  }
}

/** Statuses whose responses have no body (`Response` refuses one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/**
 * `fetch` for user-given URLs (the service's URL pages and webhooks): resolves the host once, rejects with
 * {@link AddressRefusedError} when any of its addresses is private, and connects to exactly the addresses it
 * checked. The platform's `fetch` would resolve the name again for the connection, and a host can answer
 * differently the second time (DNS rebinding). http(s) only; redirects come back as they are and are never
 * followed (`redirect: 'manual'` is required), so the caller checks every hop; bodies are strings or bytes.
 * `rules` is for tests.
 */
export async function publicFetch(
  input: string | URL,
  init: RequestInit = {},
  rules: AddressRules = addressRules(),
): Promise<Response> {
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`only http(s) URLs can be fetched, got "${url.protocol}"`);
  if (url.username !== '' || url.password !== '') throw new TypeError('a URL with credentials cannot be fetched');
  if (init.redirect !== 'manual')
    throw new TypeError('publicFetch follows no redirect: pass redirect "manual" and check every hop');
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))
    throw new TypeError('publicFetch sends string or byte bodies only');
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const addresses = await untilAborted(publicAddresses(url.hostname, rules), signal);
  if (!addresses) throw new AddressRefusedError(url.hostname);

  return new Promise<Response>((resolve, reject) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method,
      headers: Object.fromEntries(new Headers(init.headers)),
      lookup: pinnedLookup(addresses),
      // No pooled socket: each request connects to the addresses it checked itself.
      agent: false,
    });
    let answer: IncomingMessage | undefined;
    const abort = () => {
      reject(signal!.reason);
      request.destroy(signal!.reason);
      answer?.destroy(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const settled = () => signal?.removeEventListener('abort', abort);
    request.on('error', (error) => {
      settled();
      reject(new TypeError(`fetch failed: ${error.message}`, { cause: error }));
    });
    request.on('response', (response) => {
      answer = response;
      response.once('close', settled);
      try {
        const headers = new Headers();
        for (let index = 0; index < response.rawHeaders.length; index += 2)
          headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
        const status = response.statusCode ?? 0;
        const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
        if (empty) response.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
            status,
            statusText: response.statusMessage ?? '',
            headers,
          }),
        );
      } catch (error) {
        response.destroy();
        reject(
          new TypeError(`fetch failed: the answer is not a valid HTTP response (${(error as Error).message})`, {
            cause: error,
          }),
        );
      }
    });
    request.end(body);
  });
}

/** `promise`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
