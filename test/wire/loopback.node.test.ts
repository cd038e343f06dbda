import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLoopbackHostname } from '../../src/wire/loopback.js';

// Hostnames as the URL parser writes them: what every caller passes.
const hostnameOf = (url: string) => new URL(url).hostname;

test('loopback hosts: localhost, 127.0.0.0/8 and [::1], in any spelling the URL parser normalizes', () => {
  for (const url of [
    'http://localhost:8787/',
    'http://LOCALHOST/',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://127.255.255.254/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
  ])
    assert.equal(isLoopbackHostname(hostnameOf(url)), true, url);
});

test('everything else is not loopback, however close it looks', () => {
  for (const url of [
    'http://localhost.example.com/',
    'http://127.0.0.1.nip.io/',
    'http://my-localhost/',
    'http://128.0.0.1/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://[::2]/',
    'http://[::ffff:127.0.0.1]/',
    'http://example.com/',
  ])
    assert.equal(isLoopbackHostname(hostnameOf(url)), false, url);
  assert.equal(isLoopbackHostname(''), false);
  assert.equal(isLoopbackHostname('127.0.0.1 '), false);
});
