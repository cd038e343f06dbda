import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pinnedLookup } from './egress-lookup.js';
import type { RenderNetworkPolicy } from './policy.js';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for the browser's `--proxy-server`. */
  readonly origin: string;
  /** Stops listening and cuts every connection and tunnel. */
  close(): Promise<void>;
}

/** Headers of one hop (RFC 9110 §7.6.1), plus the ones the proxy sets itself: never passed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);
/** A CONNECT target: a host name or IPv4 address, or an IPv6 address in brackets, and a port. No userinfo, no path. */
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9\-._~%!$&'()*+,;=]+):(\d{1,5})$/i;

/**
 * The way out of a render's browser (src/render/chromium.ts `egressProxyFlags`): an HTTP forward proxy on
 * 127.0.0.1 that asks the render's network policy for every request — absolute-form `http:` requests are forwarded,
 * `CONNECT` opens a tunnel for `https:` — and connects to exactly the addresses the policy checked, never resolving
 * the name again. So a host that resolved publicly for the check cannot send the browser to a private address
 * afterwards (DNS rebinding): Chromium does not resolve names that go through a proxy. Refusals answer 403 and are
 * not reported: the request guard already refused, and reported, every page request the policy refuses; what only
 * the proxy sees (the browser's own background requests, preconnects, tunnels to unexpected ports) is no page
 * request to report.
 */
export async function startEgressProxy(policy: RenderNetworkPolicy): Promise<EgressProxy> {
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer((request, response) => {
    forward(policy, request, response, track).catch(() =>
      response.headersSent ? response.destroy() : refuse(response, 502, 'the proxy failed'),
    );
  });
  server.on('connection', track);
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnel(policy, request, client, head, track).catch(() => client.destroy());
  });
  // A WebSocket handshake sent as a plain request (Chromium tunnels them; WebSockets never go out).
  server.on('upgrade', (_request: IncomingMessage, client: Duplex) => answerRaw(client, 403, 'Forbidden'));

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Forwards one absolute-form `http:` request to the checked addresses of its host. */
async function forward(
  policy: RenderNetworkPolicy,
  request: IncomingMessage,
  response: ServerResponse,
  track: (socket: Duplex) => void,
): Promise<void> {
  const target = absoluteHttpUrl(request.url);
  if (!target) return refuse(response, 400, 'the proxy takes absolute http: URLs without credentials only');
  const route = await policy.route(target.href);
  if ('refusal' in route) return refuse(response, 403, `refused: ${route.refusal}`);
  if (request.destroyed) return;
  const upstream = httpRequest({
    host: bare(target.hostname),
    port: target.port || 80,
    method: request.method,
    path: `${target.pathname}${target.search}`,
    headers: ['host', target.host, ...passOn(request.rawHeaders)],
    setHost: false,
    lookup: pinnedLookup(route.addresses),
    agent: false,
  });
  upstream.on('socket', track);
  upstream.on('response', (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, passOn(answer.rawHeaders));
    answer.pipe(response);
    answer.on('error', () => response.destroy());
  });
  upstream.on('error', () =>
    response.headersSent ? response.destroy() : refuse(response, 502, `"${target.host}" could not be reached`),
  );
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
}

/** Opens a tunnel for `CONNECT host:port` to the checked addresses of the host, if the policy allows it. */
async function tunnel(
  policy: RenderNetworkPolicy,
  request: IncomingMessage,
  client: Duplex,
  head: Buffer,
  track: (socket: Duplex) => void,
): Promise<void> {
  client.on('error', () => client.destroy());
  const target = connectTarget(request.url);
  if (!target) return answerRaw(client, 400, 'Bad Request');
  const route = await policy.tunnelRoute(target.hostname, target.port);
  if ('refusal' in route) return answerRaw(client, 403, 'Forbidden');
  if (client.destroyed) return;
  const upstream: Socket = connect({
    host: bare(target.hostname),
    port: target.port,
    lookup: pinnedLookup(route.addresses),
  });
  track(upstream);
  let open = false;
  upstream.once('connect', () => {
    open = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  // An orderly end travels through the pipes; a failure on either side cuts both.
  upstream.on('error', () => (open ? client.destroy() : answerRaw(client, 502, 'Bad Gateway')));
  client.on('close', () => upstream.destroy());
}

/** The URL of a proxy request: absolute-form, `http:`, no userinfo; anything else is no request for this proxy. */
function absoluteHttpUrl(target: string | undefined): URL | undefined {
  if (!target || !/^http:\/\//i.test(target)) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' && url.username === '' && url.password === '' && url.hostname !== ''
    ? url
    : undefined;
}

/** Host (as the URL parser writes it: IDNA, canonical IPv4 and IPv6) and port of a CONNECT request. */
function connectTarget(target: string | undefined): { hostname: string; port: number } | undefined {
  const match = AUTHORITY.exec(target ?? '');
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`https://${match[1]}/`).hostname;
  } catch {
    return undefined;
  }
  return hostname === '' ? undefined : { hostname, port };
}

/** `rawHeaders` without the hop-by-hop ones (those the `Connection` header names included). */
function passOn(rawHeaders: readonly string[]): string[] {
  const named = new Set<string>();
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === 'connection')
      for (const name of rawHeaders[index + 1]!.split(',')) named.add(name.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) kept.push(rawHeaders[index]!, rawHeaders[index + 1]!);
  }
  return kept;
}

/** A URL hostname as a socket takes it (IPv6 without brackets). */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

function refuse(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  });
  response.end(text);
}

/** Answers a CONNECT or upgrade on the raw socket and closes it. */
function answerRaw(client: Duplex, status: number, reason: string): void {
  if (!client.destroyed) client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}
