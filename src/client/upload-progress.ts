/** Reports how many bytes of a request body were sent, out of how many. */
export type UploadBytes = (sent: number, total: number) => void;

/**
 * A `fetch` that reports the request body's bytes as they leave: `fetch` cannot tell upload progress in a browser,
 * so there it sends with `XMLHttpRequest`; in Node it streams the body through a counter. Rejections keep fetch's
 * shapes (a `TypeError` for a network failure, the signal's reason on abort), so the client's retries work alike.
 */
export function fetchWithUploadProgress(
  onBytes: UploadBytes,
  base: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  return typeof XMLHttpRequest === 'function' ? xhrFetch(onBytes) : countingFetch(onBytes, base);
}

function xhrFetch(onBytes: UploadBytes): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const { signal } = init;
      if (signal?.aborted) return reject(signal.reason);
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : String(input));
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) => onBytes(event.loaded, event.total);
      xhr.onload = () =>
        resolve(
          new Response(nullBodyStatus(xhr.status) ? null : xhr.response, {
            status: xhr.status,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      xhr.onerror = () => reject(new TypeError('network error'));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      // A retried upload shares the caller's signal: each attempt takes its listener with it.
      xhr.onloadend = () => signal?.removeEventListener('abort', abort);
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}

const nullBodyStatus = (status: number) => status === 101 || status === 204 || status === 205 || status === 304;

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

function countingFetch(onBytes: UploadBytes, base: typeof fetch): typeof fetch {
  return (input, init = {}) => {
    const { body } = init;
    if (!(body instanceof Blob) && !(body instanceof Uint8Array)) return base(input, init);
    const blob = body instanceof Blob ? body : new Blob([body as Uint8Array<ArrayBuffer>]);
    let sent = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        onBytes(sent, blob.size);
        controller.enqueue(chunk);
      },
    });
    const headers = new Headers(init.headers);
    // A stream has no length of its own; the service reads it to decide before the body arrives.
    headers.set('content-length', String(blob.size));
    return base(input, { ...init, headers, body: blob.stream().pipeThrough(counter), duplex: 'half' } as RequestInit);
  };
}
