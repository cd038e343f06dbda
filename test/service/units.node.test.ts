import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPrivateAddress } from '../../src/service/network-guard.js';
import { creditsFor } from '../../src/service/renders/billing.js';
import { detectAspectRatio } from '../../src/service/renders/project-check.js';
import { withBaseHref } from '../../src/service/renders/url-page.js';
import { UrlSigner } from '../../src/service/signing/url-signer.js';

describe('isPrivateAddress', () => {
  const PRIVATE = ['127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::3', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'];
  const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
  for (const address of PRIVATE) test(`${address} is private`, () => assert.equal(isPrivateAddress(address), true));
  for (const address of PUBLIC) test(`${address} is public`, () => assert.equal(isPrivateAddress(address), false));
});

describe('creditsFor', () => {
  const CASES: [number, '1080p' | '4k', number][] = [
    [30, '1080p', 1],
    [60, '1080p', 2],
    [30, '4k', 1.5],
    [31, '1080p', 1.04],
    [1, '1080p', 0.04],
    [300, '4k', 15],
    [0, '1080p', 0],
  ];
  for (const [frames, resolution, credits] of CASES) test(`${frames} frames at ${resolution} cost ${credits}`, () => assert.equal(creditsFor(frames, resolution), credits));
});

describe('detectAspectRatio', () => {
  const CASES: [number | undefined, number | undefined, string][] = [
    [1920, 1080, '16:9'],
    [1080, 1920, '9:16'],
    [1000, 1000, '1:1'],
    [1280, 960, '1:1'],
    [2560, 1080, '16:9'],
    [undefined, 1080, '16:9'],
    [undefined, undefined, '16:9'],
  ];
  for (const [width, height, ratio] of CASES) test(`${width}×${height} → ${ratio}`, () => assert.equal(detectAspectRatio({ width, height }), ratio));
});

describe('withBaseHref', () => {
  const URL_ = 'https://example.com/a/page.html?x=1&y="2"';
  const BASE = '<base href="https://example.com/a/page.html?x=1&amp;y=&quot;2&quot;">';
  test('goes first in <head>', () => assert.equal(withBaseHref('<html><head lang="en"><title>t</title></head></html>', URL_), `<html><head lang="en">${BASE}<title>t</title></head></html>`));
  test('goes after <html> without <head>', () => assert.equal(withBaseHref('<!doctype html><html><body>x</body></html>', URL_), `<!doctype html><html>${BASE}<body>x</body></html>`));
  test('goes after the doctype without <html>', () => assert.equal(withBaseHref('<!DOCTYPE html><p>x', URL_), `<!DOCTYPE html>${BASE}<p>x`));
  test('is not confused by <header>', () => assert.equal(withBaseHref('<header>x</header>', URL_), `${BASE}<header>x</header>`));
  test("keeps the page's own base", () => assert.equal(withBaseHref('<head><base href="/x/"></head>', URL_), '<head><base href="/x/"></head>'));
});

describe('UrlSigner', () => {
  const signer = new UrlSigner(Buffer.alloc(32, 7));
  const path = '/v3/files/renders/rnd_a/video.mp4';
  const signature = signer.sign(path, 1000);
  test('a valid link', () => assert.equal(signer.check(path, '1000', signature, 999), 'valid'));
  test('valid until the second it expires', () => assert.equal(signer.check(path, '1000', signature, 1000), 'valid'));
  test('an expired link', () => assert.equal(signer.check(path, '1000', signature, 1001), 'expired'));
  test('another path', () => assert.equal(signer.check(path.replace('rnd_a', 'rnd_b'), '1000', signature, 999), 'invalid'));
  test('another expiry', () => assert.equal(signer.check(path, '1001', signature, 999), 'invalid'));
  test('a non-numeric expiry', () => assert.equal(signer.check(path, '1e3', signature, 999), 'invalid'));
  test('a missing signature', () => assert.equal(signer.check(path, '1000', undefined, 999), 'invalid'));
  test('a truncated signature', () => assert.equal(signer.check(path, '1000', signature.slice(1), 999), 'invalid'));
  test('another secret', () => assert.equal(new UrlSigner(Buffer.alloc(32, 8)).check(path, '1000', signature, 999), 'invalid'));
});
