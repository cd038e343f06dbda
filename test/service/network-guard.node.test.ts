// isPrivateAddress (src/service/network-guard.ts): which addresses a render, a url page or a webhook may not reach.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPrivateAddress } from '../../src/service/network-guard.js';

describe('isPrivateAddress', () => {
  const PRIVATE = [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12::3',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ];
  const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
  for (const address of PRIVATE) test(`${address} is private`, () => assert.equal(isPrivateAddress(address), true));
  for (const address of PUBLIC) test(`${address} is public`, () => assert.equal(isPrivateAddress(address), false));

  // IPv6 forms that carry an IPv4 address: NAT64 (RFC 6052), 6to4 (RFC 3056), IPv4-compatible (RFC 4291, deprecated).
  const EMBEDDED_PRIVATE = [
    '64:ff9b::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::c0a8:101',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:101:1::1',
    '2002:a9fe:a9fe::',
    '::127.0.0.1',
    '::7f00:1',
    '::10.0.0.1',
    '::a9fe:a9fe',
  ];
  for (const address of EMBEDDED_PRIVATE)
    test(`${address} is private (embeds a private IPv4 address)`, () => assert.equal(isPrivateAddress(address), true));
  // The same forms around public IPv4 addresses stay reachable: an IPv6-only host with DNS64 sees every site as 64:ff9b::….
  for (const address of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1'])
    test(`${address} is public (embeds a public IPv4 address)`, () => assert.equal(isPrivateAddress(address), false));
});
