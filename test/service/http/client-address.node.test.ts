// Who the client is behind a reverse proxy: X-Forwarded-For believed from trusted proxies only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientAddress, TrustedProxies } from '../../../src/service/http/client-address.js';

const none = new TrustedProxies([]);
const proxies = new TrustedProxies(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);

test('with no trusted proxy, the connection is the client whatever the header says', () => {
  assert.equal(clientAddress('203.0.113.9', '198.51.100.1', none), '203.0.113.9');
});

test("an untrusted peer's X-Forwarded-For is ignored (anyone can send one)", () => {
  assert.equal(clientAddress('203.0.113.9', '198.51.100.1', proxies), '203.0.113.9');
});

test('behind trusted proxies, the last address that is not one of them', () => {
  assert.equal(clientAddress('10.1.2.3', '198.51.100.1', proxies), '198.51.100.1');
  // The client put a made-up address first; the proxies appended what they saw.
  assert.equal(clientAddress('10.1.2.3', '1.2.3.4, 198.51.100.1, 192.168.1.7', proxies), '198.51.100.1');
  assert.equal(clientAddress('::ffff:10.1.2.3', ' 198.51.100.1 ', proxies), '198.51.100.1');
  assert.equal(clientAddress('fd00::1', '2001:db8::5', proxies), '2001:db8::5');
});

test('a chain of only trusted proxies, a missing header, or garbage in the chain', () => {
  assert.equal(clientAddress('10.1.2.3', '10.9.9.9, 192.168.1.7', proxies), '10.9.9.9');
  assert.equal(clientAddress('10.1.2.3', undefined, proxies), '10.1.2.3');
  assert.equal(clientAddress('10.1.2.3', '', proxies), '10.1.2.3');
  assert.equal(clientAddress('10.1.2.3', '198.51.100.1, <script>', proxies), '10.1.2.3');
  assert.equal(clientAddress(undefined, '198.51.100.1', proxies), 'unknown');
});

test('a trusted-proxy entry that is neither an address nor a CIDR range is refused, naming it', () => {
  for (const entry of ['10.0.0.0/33', 'fd00::/129', 'proxy.local', '10.0.0.1/8/1', '', '10.0.0.0/x'])
    assert.throws(() => new TrustedProxies([entry]), /an IP address or CIDR range/, entry);
});
