// resolveOAuthSettings (src/service/oauth/settings.ts): the authorization server's defaults and what it refuses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_ISSUER, resolveOAuthSettings, type OAuthSettings } from '../../../src/service/oauth/settings.js';

describe('resolveOAuthSettings', () => {
  test('defaults: issuer on 127.0.0.1:8787/oauth, audience its origin + /v3, 10 min access tokens', () => {
    const settings = resolveOAuthSettings({ dataDir: '/tmp/x' });
    assert.deepEqual(
      [settings.issuer, settings.mountPath, settings.audience, settings.lifetimes.accessToken, settings.devAutoLogin],
      [DEFAULT_ISSUER, '/oauth', 'http://127.0.0.1:8787/v3', 600, undefined],
    );
    assert.equal(DEFAULT_ISSUER, 'http://127.0.0.1:8787/oauth');
  });

  test('a trailing slash of the issuer is dropped', () => {
    assert.equal(
      resolveOAuthSettings({ dataDir: '/tmp/x', issuer: 'https://render.example.com/auth/' }).issuer,
      'https://render.example.com/auth',
    );
  });

  const INVALID: [string, Partial<OAuthSettings>][] = [
    ['an issuer that is not a URL', { issuer: 'not a url' }],
    ['an ftp issuer', { issuer: 'ftp://127.0.0.1/oauth' }],
    ['a plain-http public issuer', { issuer: 'http://render.example.com/oauth' }],
    ['an issuer at the root', { issuer: 'https://render.example.com' }],
    ['an issuer under /v3', { issuer: 'https://render.example.com/v3/oauth' }],
    ['an issuer with a query', { issuer: 'https://render.example.com/oauth?x=1' }],
    ['an issuer with a fragment', { issuer: 'https://render.example.com/oauth#x' }],
    ['an issuer with credentials', { issuer: 'https://user:pw@render.example.com/oauth' }],
    ['devAutoLogin with a public issuer', { issuer: 'https://render.example.com/oauth', devAutoLogin: 'dev' }],
    ['a zero lifetime', { lifetimes: { accessToken: 0 } }],
    ['a fractional lifetime', { lifetimes: { refreshToken: 1.5 } }],
    ['an audience that is not a URL', { audience: 'renders' }],
    ['a browser redirect URI with a fragment', { browserRedirectUris: ['http://127.0.0.1:5173/#x'] }],
    ['a browser redirect URI that is not http(s)', { browserRedirectUris: ['javascript:alert(1)'] }],
    ['no sign-in failure allowed', { signIn: { maxFailures: 0 } }],
    ['a fractional failure window', { signIn: { failureWindow: 0.5 } }],
    ['no password check at a time', { signIn: { hashConcurrency: 0 } }],
    ['a negative hashing line', { signIn: { hashQueue: -1 } }],
  ];
  for (const [name, settings] of INVALID) {
    test(`${name} → oauth_settings_invalid`, () => {
      assert.throws(() => resolveOAuthSettings({ dataDir: '/tmp/x', ...settings }), { code: 'oauth_settings_invalid' });
    });
  }

  test('sign-in limits: 5 failures per 15 minutes, 2 password checks at a time and 16 waiting', () => {
    assert.deepEqual(resolveOAuthSettings({ dataDir: '/tmp/x' }).signIn, {
      maxFailures: 5,
      failureWindow: 900,
      hashConcurrency: 2,
      hashQueue: 16,
    });
    assert.equal(resolveOAuthSettings({ dataDir: '/tmp/x', signIn: { hashQueue: 0 } }).signIn.hashQueue, 0);
  });

  test('devAutoLogin is allowed on a loopback issuer', () => {
    assert.equal(
      resolveOAuthSettings({ dataDir: '/tmp/x', issuer: 'http://localhost:9000/oauth', devAutoLogin: 'dev' })
        .devAutoLogin,
      'dev',
    );
  });
});
