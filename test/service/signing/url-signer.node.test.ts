// UrlSigner (src/service/signing/url-signer.ts): the service's signed file links, their expiry and tampering.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UrlSigner } from '../../../src/service/signing/url-signer.js';

describe('UrlSigner', () => {
  const signer = new UrlSigner(Buffer.alloc(32, 7));
  const path = '/v3/files/renders/rnd_a/video.mp4';
  const signature = signer.sign(path, 1000);
  test('a valid link', () => assert.equal(signer.check(path, '1000', signature, 999), 'valid'));
  test('valid until the second it expires', () => assert.equal(signer.check(path, '1000', signature, 1000), 'valid'));
  test('an expired link', () => assert.equal(signer.check(path, '1000', signature, 1001), 'expired'));
  test('another path', () =>
    assert.equal(signer.check(path.replace('rnd_a', 'rnd_b'), '1000', signature, 999), 'invalid'));
  test('another expiry', () => assert.equal(signer.check(path, '1001', signature, 999), 'invalid'));
  test('a non-numeric expiry', () => assert.equal(signer.check(path, '1e3', signature, 999), 'invalid'));
  test('a missing signature', () => assert.equal(signer.check(path, '1000', undefined, 999), 'invalid'));
  test('a truncated signature', () => assert.equal(signer.check(path, '1000', signature.slice(1), 999), 'invalid'));
  test('another secret', () =>
    assert.equal(new UrlSigner(Buffer.alloc(32, 8)).check(path, '1000', signature, 999), 'invalid'));
});
