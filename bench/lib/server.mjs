// A small static HTTP server for browser benchmarks: the repo root as files, plus in-memory routes (bundles, blank
// pages). It listens on 127.0.0.1 on a random port and never lists directories or serves outside its root.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { byteRange } from '../../scripts/byte-range.mjs';

export const BLANK_PAGE_PATH = '/__bench/blank.html';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

// Cross-origin isolation gives pages a 5 µs `performance.now()` instead of a coarsened ~100 µs one, which
// sub-millisecond figures need. `cross-origin` resource policy keeps sandboxed (opaque-origin) frames working.
const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'cross-origin',
};

// `data:,` as icon so the browser does not ask for /favicon.ico (a 404 that would be logged as a page error).
const BLANK_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>fx bench</title></head><body></body></html>';

/**
 * Starts the server. `root` is the folder served at `/`; `crossOriginIsolated` (default true) adds the
 * COOP/COEP headers. Files answer single byte ranges (media seeking needs them). Resolves to
 * `{ origin, url(path), serve(path, body, contentType), serveFolder(prefix, folder), allowCaching(prefix, cacheControl),
 * close() }`.
 *
 * @example
 * const server = await startStaticServer({ root });
 * server.serve('/__bench/runtime.js', code, 'text/javascript');
 * await page.goto(server.url('/__bench/blank.html'));
 */
export async function startStaticServer({ root, crossOriginIsolated = true }) {
  const base = resolve(root);
  // Path prefix → folder served under it (e.g. a corpus kept outside the repo); the repo root answers the rest.
  const folders = new Map();
  const routes = new Map([[BLANK_PAGE_PATH, { body: BLANK_PAGE, contentType: CONTENT_TYPES['.html'] }]]);
  const extraHeaders = crossOriginIsolated ? ISOLATION_HEADERS : {};

  // Path prefix → `cache-control` for successful responses under it; everything else is `no-store`.
  const cachePolicies = new Map();
  const cacheControlFor = (pathname) =>
    [...cachePolicies].find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? 'no-store';

  const server = createServer(async (request, response) => {
    let pathname = '';
    const send = (status, body, contentType = 'text/plain; charset=utf-8', headers = {}) => {
      const cacheControl = status < 300 ? cacheControlFor(pathname) : 'no-store';
      response.writeHead(status, {
        'content-type': contentType,
        'cache-control': cacheControl,
        'accept-ranges': 'bytes',
        ...extraHeaders,
        ...headers,
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    // Media elements seek with byte ranges; without them a seek past the buffered start lands back at 0.
    const sendFile = (bytes, contentType) => {
      const range = byteRange(request.headers.range, bytes.length);
      if (range === undefined) return send(200, bytes, contentType);
      if (range === null)
        return send(416, 'range not satisfiable', undefined, { 'content-range': `bytes */${bytes.length}` });
      const [first, last] = range;
      send(206, bytes.subarray(first, last + 1), contentType, {
        'content-range': `bytes ${first}-${last}/${bytes.length}`,
      });
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'method not allowed');
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://bench.invalid').pathname);
    } catch {
      return send(400, 'bad request path');
    }
    const route = routes.get(pathname);
    if (route) return send(200, route.body, route.contentType);
    const [prefix, folder] = [...folders].find(([prefix]) => pathname.startsWith(prefix)) ?? ['/', base];
    const file = resolve(folder, `.${pathname.slice(prefix.length - 1)}`);
    if (file !== folder && !file.startsWith(folder + sep)) return send(403, 'outside the served root');
    try {
      if (!(await stat(file)).isFile()) return send(404, 'not found');
      sendFile(await readFile(file), CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
    } catch {
      send(404, 'not found');
    }
  });

  await new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ready);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => new URL(path, origin).href,
    serve(path, body, contentType) {
      routes.set(path, { body, contentType });
      return new URL(path, origin).href;
    },
    /**
     * Sends `cacheControl` (e.g. `max-age=600`) instead of `no-store` for paths starting with `prefix`, so a page
     * can be measured with a warm HTTP cache. Returns the function that restores `no-store`.
     */
    allowCaching(prefix, cacheControl) {
      cachePolicies.set(prefix, cacheControl);
      return () => cachePolicies.delete(prefix);
    },
    /** Serves the files of `folder` under `prefix` (which starts and ends with `/`), with the same rules as the root. */
    serveFolder(prefix, folder) {
      if (!/^\/.*\/$/.test(prefix))
        throw new Error(`"prefix" must start and end with "/", got ${JSON.stringify(prefix)}`);
      folders.set(prefix, resolve(folder));
      return new URL(prefix, origin).href;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
