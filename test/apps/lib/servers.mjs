// What the apps stage serves: a built app's folder as a static site, or a dev server behind a pass-through proxy.
// Both record every answer of 400 or more, including those to the composition's sandboxed frame, which the
// browser's page events do not show.
import { createReadStream, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Listens on a free loopback port; resolves `{ port, failures, close }`. */
function listen(handler, failures) {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        port: server.address().port,
        failures,
        close: () => new Promise((done) => server.close(done)),
      }),
    );
  });
}

/**
 * Serves `folder` (index.html for `/`); records 4xx/5xx answers in `failures`. With `cors`, answers as a CDN does
 * (`access-control-allow-origin: *`), which a module script from another origin needs.
 */
export function serveStatic(folder, { failures = [], cors = false } = {}) {
  const base = normalize(folder + sep);
  return listen((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const path = normalize(join(base, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    let size = -1;
    try {
      if (path.startsWith(base)) size = statSync(path).isFile() ? statSync(path).size : -1;
    } catch {}
    if (size < 0) {
      failures.push(`404 ${pathname}`);
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-length': size };
    res.writeHead(200, cors ? { ...headers, 'access-control-allow-origin': '*' } : headers);
    createReadStream(path).pipe(res);
  }, failures);
}

/** A proxy in front of a dev server on `targetPort` (WebSocket upgrades piped through); records 4xx/5xx answers. */
export async function proxyTo(targetPort) {
  const failures = [];
  const proxy = await listen((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: targetPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (answer.statusCode >= 400) failures.push(`${answer.statusCode} ${req.url}`);
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      failures.push(`502 ${req.url} (${error.message})`);
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  }, failures);
  proxy.server.on('upgrade', (req, socket, head) => {
    const upstream = connect(targetPort, '127.0.0.1', () => {
      const headers = Object.entries(req.headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return proxy;
}

/** A free loopback port. */
export async function freePort() {
  const { port, close } = await listen(() => {}, []);
  await close();
  return port;
}
