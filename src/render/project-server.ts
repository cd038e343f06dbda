import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { parseByteRange } from './byte-range.js';
import { BUNDLE_FILES } from './bundles.js';
import { contentTypeOf } from './content-types.js';

/**
 * Paths the renderer serves itself, under the server's secret base path (see `url()`); a project's own `__fx/`
 * folder is shadowed.
 */
export const ServerPath = {
  prefix: '/__fx/',
  compiler: `/__fx/${BUNDLE_FILES.compiler}`,
  runtime: `/__fx/${BUNDLE_FILES.runtime}`,
  compilePage: '/__fx/compile.html',
  compiled: '/__fx/compiled/',
} as const;

const HTML = 'text/html; charset=utf-8';
// `data:,` as icon so the browser asks for no /favicon.ico; the compiler sits next to the page.
const COMPILE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script src="${BUNDLE_FILES.compiler}"></script></head><body></body></html>`;
/** Random bytes of the base path: nothing that does not know it can name a file of this server. */
const BASE_PATH_BYTES = 16;

export interface ProjectServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** `<origin>/<secret>/`: the project's root; every URL of the server is under it. */
  readonly baseUrl: string;
  /** The URL of a path from the project's root (a leading `/` is the root too). */
  url(path: string): string;
  /** The project file a URL on this server names (checked like a request), else `undefined`. */
  localFile(url: string): Promise<string | undefined>;
  /** Serves a compiled document; returns its URL. */
  addDocument(id: string, html: string): string;
  close(): Promise<void>;
}

/**
 * Serves one project directory on 127.0.0.1 (random port) for the render browser: project files with their
 * content types and HTTP Range support (media seeking needs it), never anything outside the project (symlinks
 * included), never a directory listing; plus the built bundles, the compile page and compiled documents
 * under `__fx/`. Everything is under a random base path of 128 bits, so another render's page, or any other
 * local process, cannot address this project's files. It answers no CONNECT, so it doubles as the proxy that
 * refuses the browser's WebSockets and other non-http(s) schemes (`egressProxyFlags`).
 */
export async function startProjectServer(projectDir: string, distDir: string): Promise<ProjectServer> {
  const root = await realpath(resolve(projectDir));
  const basePath = `/${randomBytes(BASE_PATH_BYTES).toString('hex')}`;
  const documents = new Map<string, string>();
  const bundles = new Map<string, string>([
    [ServerPath.compiler, join(distDir, BUNDLE_FILES.compiler)],
    [ServerPath.runtime, join(distDir, BUNDLE_FILES.runtime)],
  ]);

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendText(response, 500, 'internal error');
      else response.destroy();
    });
  });
  server.on('connect', (_request, socket) => socket.destroy());

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendText(response, 405, 'method not allowed', { allow: 'GET, HEAD' });
    // Only origin-form targets: an absolute URL would be a proxy request.
    if (!request.url?.startsWith('/')) return sendText(response, 400, 'bad request path');
    const underBase = new URL(request.url, 'http://project.invalid').pathname;
    if (!underBase.startsWith(`${basePath}/`)) return sendText(response, 404, 'not found');
    let pathname: string;
    try {
      pathname = decodeURIComponent(underBase.slice(basePath.length));
    } catch {
      return sendText(response, 400, 'bad request path');
    }
    if (pathname.includes('\0')) return sendText(response, 400, 'bad request path');
    if (pathname === ServerPath.compilePage) return sendBody(request, response, COMPILE_PAGE, HTML);
    if (pathname.startsWith(ServerPath.compiled)) {
      const html = documents.get(pathname.slice(ServerPath.compiled.length));
      return html === undefined ? sendText(response, 404, 'not found') : sendBody(request, response, html, HTML);
    }
    const bundle = bundles.get(pathname);
    if (bundle) return sendFile(request, response, bundle);
    if (pathname.startsWith(ServerPath.prefix)) return sendText(response, 404, 'not found');

    const file = await projectFile(pathname);
    if (file === 'outside') return sendText(response, 403, 'outside the project');
    if (file === undefined) return sendText(response, 404, 'not found');
    return sendFile(request, response, file);
  }

  /** The real path of a project file named by a URL path, `'outside'` when it leads out of the project. */
  async function projectFile(pathname: string): Promise<string | 'outside' | undefined> {
    const file = resolve(root, `.${pathname}`);
    if (!inside(root, file)) return 'outside';
    let real: string;
    try {
      real = await realpath(file);
    } catch {
      return undefined;
    }
    return inside(root, real) ? real : 'outside';
  }

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}${basePath}/`;
  const url = (path: string) => new URL(path.replace(/^\/+/, ''), baseUrl).href;
  return {
    origin,
    baseUrl,
    url,
    async localFile(fileUrl) {
      let parsed: URL;
      try {
        parsed = new URL(fileUrl);
      } catch {
        return undefined;
      }
      if (parsed.origin !== origin || !parsed.pathname.startsWith(`${basePath}/`)) return undefined;
      const underBase = parsed.pathname.slice(basePath.length);
      if (underBase.startsWith(ServerPath.prefix)) return undefined;
      let pathname: string;
      try {
        pathname = decodeURIComponent(underBase);
      } catch {
        return undefined;
      }
      const file = await projectFile(pathname);
      return file === 'outside' ? undefined : file;
    },
    addDocument(id, html) {
      documents.set(`${id}.html`, html);
      return url(`${ServerPath.compiled}${id}.html`);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}

function sendBody(request: IncomingMessage, response: ServerResponse, body: string, contentType: string): void {
  const bytes = Buffer.from(body, 'utf8');
  response.writeHead(200, { ...BASE_HEADERS, 'content-type': contentType, 'content-length': bytes.length });
  response.end(request.method === 'HEAD' ? undefined : bytes);
}

async function sendFile(request: IncomingMessage, response: ServerResponse, file: string): Promise<void> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return sendText(response, 404, 'not found');
    size = info.size;
  } catch {
    return sendText(response, 404, 'not found');
  }
  const headers = { ...BASE_HEADERS, 'content-type': contentTypeOf(file), 'accept-ranges': 'bytes' };
  const range = parseByteRange(request.headers.range, size);
  if (range === 'unsatisfiable')
    return sendText(response, 416, 'range not satisfiable', { 'content-range': `bytes */${size}` });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  response.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': String(Math.max(0, end - start + 1)),
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (request.method === 'HEAD' || size === 0) return void response.end();
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => response.destroy());
  response.on('close', () => stream.destroy());
  stream.pipe(response);
}
