// publicFetch, the service's way out to user-given URLs, against real sockets: it connects to the address it
// checked — a host that answers "public" and then private never gets the private server contacted — refuses private
// literals in every spelling without connecting, and behaves like fetch where its callers rely on it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressRefusedError, publicFetch } from '../../src/render/network/egress-fetch.js';
import { httpTwins, PRIVATE_ADDRESS, PUBLIC_STAND_IN, scriptedRules, tcpTwins, type Twins } from './rebinding.js';

let web: Twins;
let tls: Twins;
const received: { url: string; body: string; length: string | undefined }[] = [];

before(async () => {
  web = await httpTwins((side, request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', body, length: request.headers['content-length'] });
      if (request.url === '/redirect')
        return void response.writeHead(302, { location: 'http://elsewhere.test/' }).end();
      if (request.url === '/empty') return void response.writeHead(204).end();
      if (request.url === '/slow') return void setTimeout(() => response.end(side), 2000);
      response.writeHead(200, { 'content-type': 'text/plain', 'x-side': side }).end(side);
    });
  });
  tls = await tcpTwins();
});

after(async () => {
  await Promise.all([web.close(), tls.close()]);
});

const manual = { redirect: 'manual' } as const;

describe('a host that answers "public" for the check and private afterwards', () => {
  test('http: the request reaches the address checked; the next one is refused at its own check', async () => {
    const rules = scriptedRules({ 'rebind.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS] });
    const response = await publicFetch(`http://rebind.test:${web.port}/page`, manual, rules);
    assert.equal(await response.text(), 'public');
    await assert.rejects(
      publicFetch(`http://rebind.test:${web.port}/page`, manual, rules),
      (error: unknown) =>
        error instanceof AddressRefusedError && error.code === 'address_not_public' && error.hostname === 'rebind.test',
    );
    assert.equal(rules.lookups.get('rebind.test'), 2, 'one lookup per request, none for the connection');
    assert.equal(web.private.connections, 0);
  });

  test('https: the TLS handshake goes to the address checked, with the host name (SNI) of the URL', async () => {
    const rules = scriptedRules({ 'rebind.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS] });
    // The stand-in speaks no TLS: the fetch fails after the handshake began, at the public address.
    await assert.rejects(
      publicFetch(`https://rebind.test:${tls.port}/hook`, { ...manual, method: 'POST', body: '{}' }, rules),
      /fetch failed/,
    );
    assert.equal(tls.public.firstBytes.length, 1);
    assert.equal(tls.public.firstBytes[0]![0], 0x16, 'a TLS handshake record');
    assert.ok(tls.public.firstBytes[0]!.includes(Buffer.from('rebind.test')), 'the ClientHello names the host');
    assert.equal(tls.private.connections, 0);
  });
});

describe('private destinations are refused without a connection', () => {
  const rules = scriptedRules({
    'private.test': [PRIVATE_ADDRESS],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': [`${PUBLIC_STAND_IN},${PRIVATE_ADDRESS}`],
  });
  const REFUSED = [
    'http://127.0.0.1:<port>/',
    'http://2130706433:<port>/',
    'http://0x7f.1:<port>/',
    'http://[::1]:<port>/',
    'http://[::ffff:127.0.0.1]:<port>/',
    'http://[::ffff:7f00:1]:<port>/',
    'http://[64:ff9b::7f00:1]:<port>/',
    'http://private.test:<port>/',
    'http://metadata.test:<port>/latest/meta-data/',
    'http://mixed.test:<port>/',
    'http://unknown.test:<port>/',
  ];
  for (const url of REFUSED) {
    test(`${url} → AddressRefusedError`, async () => {
      await assert.rejects(publicFetch(url.replace('<port>', String(web.port)), manual, rules), AddressRefusedError);
      assert.equal(web.private.connections, 0);
    });
  }
});

describe('what callers rely on', () => {
  const rules = scriptedRules({ 'site.test': [PUBLIC_STAND_IN] });
  const at = (path: string) => `http://site.test:${web.port}${path}`;

  test('a redirect comes back as it is, never followed', async () => {
    const response = await publicFetch(at('/redirect'), manual, rules);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), 'http://elsewhere.test/');
  });

  test('a POST body arrives whole, with its length', async () => {
    const response = await publicFetch(
      at('/hook'),
      { ...manual, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
      rules,
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-side'), 'public');
    assert.deepEqual(
      received.find((request) => request.url === '/hook'),
      { url: '/hook', body: '{"ok":true}', length: '11' },
    );
  });

  test('204 and HEAD answers have no body', async () => {
    assert.equal((await publicFetch(at('/empty'), manual, rules)).body, null);
    assert.equal((await publicFetch(at('/page'), { ...manual, method: 'HEAD' }, rules)).body, null);
  });

  test("a timeout rejects with the signal's TimeoutError", async () => {
    await assert.rejects(publicFetch(at('/slow'), { ...manual, signal: AbortSignal.timeout(100) }, rules), {
      name: 'TimeoutError',
    });
  });

  test('only manual redirects, http(s), and URLs without credentials', async () => {
    await assert.rejects(publicFetch(at('/page'), {}, rules), /follows no redirect/);
    await assert.rejects(publicFetch('file:///etc/passwd', manual, rules), /only http\(s\)/);
    await assert.rejects(publicFetch(`http://user:pw@site.test:${web.port}/`, manual, rules), /credentials/);
  });
});
