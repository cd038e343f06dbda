// The render browser's way out, spoken to over raw sockets: requests reach exactly the address the network policy
// checked — a host that re-resolves to a private address afterwards never gets the private server contacted — and
// hostile proxy requests (private literals in every spelling, odd ports, userinfo, malformed targets, upgrades) are
// refused before anything is connected.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startEgressProxy, type EgressProxy } from '../../src/render/network/egress-proxy.js';
import { RenderNetworkPolicy } from '../../src/render/network/policy.js';
import { recordingServer } from './helpers.js';
import { httpTwins, PRIVATE_ADDRESS, PUBLIC_STAND_IN, scriptedRules, tcpTwins, type Twins } from './rebinding.js';

type Server = Awaited<ReturnType<typeof recordingServer>>;
let own: Server;
let web: Twins;
let tls: Twins;
let rules: ReturnType<typeof scriptedRules>;
let policy: RenderNetworkPolicy;
let proxy: EgressProxy;

before(async () => {
  own = await recordingServer(
    (_, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end('own'),
  );
  web = await httpTwins(
    (side, _, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end(side),
  );
  tls = await tcpTwins();
  rules = scriptedRules({
    'rebind.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS],
    'tunnel.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS],
    'private.test': [PRIVATE_ADDRESS],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': [`${PUBLIC_STAND_IN},${PRIVATE_ADDRESS}`],
  });
  policy = new RenderNetworkPolicy(own.origin, false, rules);
  proxy = await startEgressProxy(policy);
});

after(async () => {
  await proxy.close();
  await Promise.all([own.close(), web.close(), tls.close()]);
});

const proxyPort = () => Number(new URL(proxy.origin).port);

/** Sends `text` to the proxy as is and returns everything it answered until it closed the connection. */
function ask(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort(), '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the proxy kept the connection open; answered so far: ${JSON.stringify(answer)}`));
    }, 5000);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(text);
  });
}

/** `CONNECT authority`; resolves with the open socket once the proxy said 200, rejects with its answer otherwise. */
function openTunnel(authority: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort(), '127.0.0.1');
    let head = '';
    socket.on('error', reject);
    socket.on('data', function read(chunk: Buffer) {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', read);
      if (head.startsWith('HTTP/1.1 200')) resolve(socket);
      else {
        socket.destroy();
        reject(new Error(head));
      }
    });
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
/** The body of an answer, chunked or not (the test servers send short single-chunk bodies). */
const bodyOf = (answer: string) =>
  answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n([^]*?)\r\n0\r\n\r\n$/, '$1');
const get = (target: string, headers = '') =>
  ask(`GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);

describe('a host that re-resolves to a private address', () => {
  test('plain http: every request goes to the address checked, the private server is never contacted', async () => {
    assert.equal(
      await policy.refusal(`http://rebind.test:${web.port}/image.png`),
      undefined,
      'the request guard allows it (first, public answer)',
    );
    for (let round = 0; round < 2; round++) {
      const answer = await get(`http://rebind.test:${web.port}/round-${round}`);
      assert.equal(statusOf(answer), 200, answer);
      assert.equal(bodyOf(answer), 'public');
    }
    assert.equal(rules.lookups.get('rebind.test'), 1, 'resolved once per render');
    assert.deepEqual(
      web.public.requests.map((request) => request.url),
      ['/round-0', '/round-1'],
    );
    assert.equal(web.private.connections, 0);
  });

  test('https: the tunnel goes to the address checked, on the port of the URL the page asked for', async () => {
    assert.equal(await policy.refusal(`https://tunnel.test:${tls.port}/video.mp4`), undefined);
    for (const hello of ['first hello', 'second hello']) {
      const socket = await openTunnel(`tunnel.test:${tls.port}`);
      socket.write(hello);
      await new Promise((resolve) => socket.once('close', resolve));
    }
    assert.deepEqual(tls.public.firstBytes.map(String), ['first hello', 'second hello']);
    assert.equal(tls.private.connections, 0);
    assert.equal(rules.lookups.get('tunnel.test'), 1);
  });

  test('a host that answers privately is refused without a connection', async () => {
    assert.equal(statusOf(await get(`http://private.test:${web.port}/`)), 403);
    assert.equal(statusOf(await get(`http://metadata.test:${web.port}/latest/meta-data/`)), 403);
    assert.equal(
      statusOf(await get(`http://mixed.test:${web.port}/`)),
      403,
      'one private address among public ones is enough',
    );
    await assert.rejects(openTunnel('private.test:443'), /^Error: HTTP\/1\.1 403/);
    assert.equal(web.private.connections + tls.private.connections, 0);
  });
});

test("hop-by-hop and proxy headers stay with the proxy; the Host header is the URL's", async () => {
  const answer = await get(
    `http://rebind.test:${web.port}/headers`,
    'Proxy-Authorization: Basic c2VjcmV0\r\nProxy-Connection: keep-alive\r\nKeep-Alive: 5\r\nX-Hop: 1\r\nX-Kept: 2\r\nConnection: x-hop\r\n',
  );
  assert.equal(statusOf(answer), 200, answer);
  const { headers } = web.public.requests.find((request) => request.url === '/headers')!;
  assert.equal(headers.host, `rebind.test:${web.port}`);
  assert.equal(headers['x-kept'], '2');
  for (const name of ['proxy-authorization', 'proxy-connection', 'keep-alive', 'x-hop'])
    assert.equal(headers[name], undefined, name);
});

test('the project server is reached through the proxy too, should the browser send it there', async () => {
  const answer = await get(`${own.origin}/file.txt`);
  assert.equal(statusOf(answer), 200, answer);
  assert.equal(bodyOf(answer), 'own');
});

describe('hostile proxy requests are refused before anything is connected', () => {
  const contacts = () => web.public.connections + tls.public.connections;
  const privateContacts = () => web.private.connections + tls.private.connections;
  const p = () => web.port;
  const CASES: [name: string, request: () => string, status: number][] = [
    ['CONNECT to a private IPv4 literal', () => 'CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to cloud metadata', () => 'CONNECT 169.254.169.254:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to loopback written in decimal', () => 'CONNECT 2130706433:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to loopback written in hex shorthand', () => 'CONNECT 0x7f.1:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to loopback written with percent-escapes', () => 'CONNECT %31%32%37.0.0.1:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to an IPv6 loopback literal', () => 'CONNECT [::1]:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to an IPv4-mapped IPv6 loopback', () => 'CONNECT [::ffff:127.0.0.1]:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to an IPv4-mapped IPv6 loopback, hex groups', () => 'CONNECT [::ffff:7f00:1]:443 HTTP/1.1\r\n\r\n', 403],
    ['CONNECT to a NAT64 loopback', () => 'CONNECT [64:ff9b::7f00:1]:443 HTTP/1.1\r\n\r\n', 403],
    [
      'CONNECT to a public host on a port no https: URL asked for',
      () => `CONNECT ${PUBLIC_STAND_IN}:${p()} HTTP/1.1\r\n\r\n`,
      403,
    ],
    [
      "CONNECT to a public host on port 80 (a WebSocket's tunnel)",
      () => `CONNECT ${PUBLIC_STAND_IN}:80 HTTP/1.1\r\n\r\n`,
      403,
    ],
    ['CONNECT to SMTP', () => `CONNECT ${PUBLIC_STAND_IN}:25 HTTP/1.1\r\n\r\n`, 403],
    ['CONNECT without a port', () => 'CONNECT rebind.test HTTP/1.1\r\n\r\n', 400],
    ['CONNECT to port 0', () => 'CONNECT rebind.test:0 HTTP/1.1\r\n\r\n', 400],
    ['CONNECT to port 70000', () => 'CONNECT rebind.test:70000 HTTP/1.1\r\n\r\n', 400],
    ['CONNECT with userinfo', () => `CONNECT user:pw@${PUBLIC_STAND_IN}:443 HTTP/1.1\r\n\r\n`, 400],
    ['CONNECT with a path', () => `CONNECT ${PUBLIC_STAND_IN}:443/path HTTP/1.1\r\n\r\n`, 400],
    ['CONNECT to a URL', () => `CONNECT https://${PUBLIC_STAND_IN}:443/ HTTP/1.1\r\n\r\n`, 400],
    ['CONNECT to an unclosed IPv6 bracket', () => 'CONNECT [::1:443 HTTP/1.1\r\n\r\n', 400],
    ['CONNECT to an unbracketed IPv6 address', () => 'CONNECT ::1:443 HTTP/1.1\r\n\r\n', 400],
    ['GET of a private IPv4 literal', () => `GET http://127.0.0.1:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`, 403],
    ['GET of loopback written in decimal', () => `GET http://2130706433:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`, 403],
    [
      'GET of loopback written with percent-escapes',
      () => `GET http://%31%32%37.0.0.1:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      403,
    ],
    ['GET of an IPv6 loopback literal', () => `GET http://[::1]:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`, 403],
    [
      'GET of an IPv4-mapped IPv6 loopback',
      () => `GET http://[::ffff:127.0.0.1]:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      403,
    ],
    [
      'GET of an IPv4-translated IPv6 loopback',
      () => `GET http://[::ffff:0:7f00:1]:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      403,
    ],
    [
      'GET of a public host with userinfo',
      () => `GET http://user:pw@${PUBLIC_STAND_IN}:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      400,
    ],
    [
      'GET of a public host with a user name only',
      () => `GET http://user@${PUBLIC_STAND_IN}:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      400,
    ],
    ['GET in origin form (no proxy request)', () => 'GET /secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
    ['GET of an absolute https: URL', () => `GET https://${PUBLIC_STAND_IN}:${p()}/ HTTP/1.1\r\nHost: x\r\n\r\n`, 400],
    ['GET of a file: URL', () => 'GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'a WebSocket handshake as a plain proxy request',
      () =>
        `GET http://${PUBLIC_STAND_IN}:${p()}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      403,
    ],
    ['a request line that is no HTTP', () => 'HELLO\r\n\r\n', 400],
    ['a header without a colon', () => `GET http://${PUBLIC_STAND_IN}:${p()}/ HTTP/1.1\r\nHost x\r\n\r\n`, 400],
  ];
  for (const [name, request, status] of CASES) {
    test(`${name} → ${status}`, async () => {
      const publicBefore = contacts();
      assert.equal(statusOf(await ask(request())), status);
      assert.equal(contacts(), publicBefore, 'no public server contacted');
      assert.equal(privateContacts(), 0, 'no private server contacted');
    });
  }
});

test('closing the proxy cuts its open tunnels', async () => {
  const otherPolicy = new RenderNetworkPolicy(own.origin, false, rules);
  assert.equal(await otherPolicy.refusal(`https://${PUBLIC_STAND_IN}:${tls.port}/`), undefined);
  const other = await startEgressProxy(otherPolicy);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const client = connect(Number(new URL(other.origin).port), '127.0.0.1');
    client.on('error', reject);
    client.once('data', (head: Buffer) =>
      head.toString().startsWith('HTTP/1.1 200') ? resolve(client) : reject(new Error(head.toString())),
    );
    client.write(`CONNECT ${PUBLIC_STAND_IN}:${tls.port} HTTP/1.1\r\n\r\n`);
  });
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await other.close();
  await closed;
});
