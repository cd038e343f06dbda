// The `oauth` authenticator of /v3: which access tokens it takes, which it refuses and what it says; lifetimes;
// restarts; the development auto sign-in.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIGNING_KEYS_FILE } from '../../src/service/oauth/constants.js';
import {
  authorizeUrl,
  bearer,
  Browser,
  LoopbackReceiver,
  pkce,
  redeemCode,
  cliTokens,
  encodeSegment,
  refresh,
  signJwt,
  startOAuthService,
  storedSigningKeys,
  type OAuthTestService,
} from './helpers/oauth-flow.js';

interface ErrorJson {
  error: { code: string; message: string; param: string | null };
}

describe('access tokens at /v3', () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  let key: KeyObject;
  let kid: string;
  let claims: Record<string, unknown>;
  before(async () => {
    test_ = await startOAuthService();
    await test_.account('alice');
    receiver = await LoopbackReceiver.start();
    const keys = await storedSigningKeys(test_);
    key = createPrivateKey({ key: keys[0]! as never, format: 'jwk' });
    kid = keys[0]!.kid;
    const { access_token: token } = await cliTokens(test_, receiver);
    claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  });
  after(async () => {
    await receiver.close();
    await test_.close();
  });

  const call = (token: string) => fetch(`${test_.url}/v3/account`, bearer(token));
  const header = () => ({ alg: 'ES256', typ: 'at+jwt', kid });
  const now = () => Math.floor(Date.now() / 1000);

  test('the signing keys live in the database, not in a file of the data folder', () => {
    assert.ok(!existsSync(join(test_.dataDir, SIGNING_KEYS_FILE)));
  });

  test('a token we sign the same way is accepted (the forgeries below differ in one thing only)', async () => {
    assert.equal((await call(signJwt(header(), claims, key))).status, 200);
  });

  const REFUSED_WITH_REASON: { name: string; token: () => string; reason: RegExp }[] = [
    {
      name: 'another audience',
      token: () => signJwt(header(), { ...claims, aud: 'https://other.example/api' }, key),
      reason: /another audience/,
    },
    {
      name: 'another issuer',
      token: () => signJwt(header(), { ...claims, iss: 'https://other.example/oauth' }, key),
      reason: /another issuer/,
    },
    {
      name: 'typ JWT (an ID token)',
      token: () => signJwt({ ...header(), typ: 'JWT' }, claims, key),
      reason: /not an access token/,
    },
    { name: 'no typ', token: () => signJwt({ alg: 'ES256', kid }, claims, key), reason: /not an access token/ },
    {
      name: 'expired',
      token: () => signJwt(header(), { ...claims, exp: now() - 1 }, key),
      reason: /expired at \d{4}-\d\d-\d\dT[\d:.]+Z; refresh it/,
    },
    { name: 'no exp', token: () => signJwt(header(), { ...claims, exp: undefined }, key), reason: /no expiry/ },
    {
      name: 'nbf in the future',
      token: () => signJwt(header(), { ...claims, nbf: now() + 300 }, key),
      reason: /not valid yet/,
    },
    {
      name: 'DPoP-bound (cnf)',
      token: () => signJwt(header(), { ...claims, cnf: { jkt: 'x' } }, key),
      reason: /sender-constrained/,
    },
    {
      name: 'without the renders scope',
      token: () => signJwt(header(), { ...claims, scope: 'openid' }, key),
      reason: /lacks the scope renders/,
    },
    {
      name: 'no scope',
      token: () => signJwt(header(), { ...claims, scope: undefined }, key),
      reason: /lacks the scope renders/,
    },
    {
      name: 'no subject',
      token: () => signJwt(header(), { ...claims, sub: undefined }, key),
      reason: /no account or grant/,
    },
    {
      name: 'a grant that does not exist',
      token: () => signJwt(header(), { ...claims, grant_id: 'no-such-grant' }, key),
      reason: /revoked or has expired; sign in again/,
    },
  ];
  for (const { name, token, reason } of REFUSED_WITH_REASON) {
    test(`${name} → 401 invalid_token saying why`, async () => {
      const response = await call(token());
      assert.equal(response.status, 401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer realm="fx", error="invalid_token", error_description="[^"\\]+"$/);
      assert.match(challenge, reason);
      const body = (await response.json()) as ErrorJson;
      assert.deepEqual([body.error.code, body.error.param], ['invalid_token', 'Authorization']);
      assert.match(body.error.message, reason);
    });
  }

  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const NOT_OURS: { name: string; token: () => string }[] = [
    { name: 'signed by another key with our kid', token: () => signJwt(header(), claims, otherKey) },
    { name: 'an unknown kid', token: () => signJwt({ ...header(), kid: 'unknown' }, claims, key) },
    { name: 'no kid', token: () => signJwt({ alg: 'ES256', typ: 'at+jwt' }, claims, key) },
    { name: 'alg none', token: () => `${encodeSegment({ ...header(), alg: 'none' })}.${encodeSegment(claims)}.` },
    {
      name: 'alg none with our signature',
      token: () => {
        const good = signJwt(header(), claims, key).split('.');
        return `${encodeSegment({ ...header(), alg: 'none' })}.${good[1]}.${good[2]}`;
      },
    },
    { name: 'alg HS256', token: () => signJwt({ ...header(), alg: 'HS256' }, claims, key) },
    { name: 'a crit header', token: () => signJwt({ ...header(), crit: ['exp'] }, claims, key) },
    {
      name: 'a changed payload',
      token: () => {
        const good = signJwt(header(), claims, key).split('.');
        return `${good[0]}.${encodeSegment({ ...claims, sub: 'acct_other' })}.${good[2]}`;
      },
    },
    {
      name: 'a DER signature',
      token: () => {
        const input = `${encodeSegment(header())}.${encodeSegment(claims)}`;
        return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
      },
    },
    { name: 'four segments', token: () => `${signJwt(header(), claims, key)}.x` },
    {
      name: 'a payload that is not JSON',
      token: () => {
        const input = `${encodeSegment(header())}.${Buffer.from('not json').toString('base64url')}`;
        return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
      },
    },
  ];
  for (const { name, token } of NOT_OURS) {
    test(`${name} → 401 invalid_token (not a token of ours)`, async () => {
      const response = await call(token());
      assert.equal(response.status, 401);
      assert.equal(
        response.headers.get('www-authenticate'),
        'Bearer realm="fx", error="invalid_token", error_description="the bearer token is unknown, revoked or expired"',
      );
    });
  }

  test('API keys still work next to OAuth tokens', async () => {
    const account = await test_.service.context.accounts.ensure('alice', Date.now());
    const { key: apiKey } = await test_.service.context.apiKeys.create(account.id);
    const json = (await (await call(apiKey)).json()) as { credential: { kind: string } };
    assert.equal(json.credential.kind, 'api_key');
  });

  test('an OAuth token can submit a render and read it back (the whole /v3 surface takes it)', async () => {
    const { access_token: token } = await cliTokens(test_, receiver);
    const submit = await fetch(`${test_.url}/v3/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    // Refused for the page, not for the credential: authentication happened first.
    assert.notEqual(submit.status, 401);
    const list = await fetch(`${test_.url}/v3/renders`, bearer(token));
    assert.equal(list.status, 200);
  });
});

describe('a short access token lifetime', () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  before(async () => {
    test_ = await startOAuthService({ oauth: { lifetimes: { accessToken: 1 } } });
    await test_.account('alice');
    receiver = await LoopbackReceiver.start();
  });
  after(async () => {
    await receiver.close();
    await test_.close();
  });

  test('an expired access token → 401 whose WWW-Authenticate says it expired; a refresh gives a working one', async () => {
    const tokens = await cliTokens(test_, receiver);
    const exp = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).exp as number;
    await sleep(Math.max(0, exp * 1000 - Date.now()) + 50);
    const response = await fetch(`${test_.url}/v3/account`, bearer(tokens.access_token));
    assert.equal(response.status, 401);
    assert.match(
      response.headers.get('www-authenticate') ?? '',
      /error="invalid_token", error_description="the access token expired at [^"]+; refresh it"/,
    );
    assert.equal(((await response.json()) as ErrorJson).error.code, 'invalid_token');
    const refreshed = await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
    assert.equal(refreshed.body.expires_in, 1);
    assert.equal((await fetch(`${test_.url}/v3/account`, bearer(refreshed.body.access_token as string))).status, 200);
  });
});

describe('a restart of the service', () => {
  test('keeps sign-ins: the access token still verifies and the refresh token still works', async () => {
    const first = await startOAuthService();
    await first.account('alice');
    const receiver = await LoopbackReceiver.start();
    let second: OAuthTestService | undefined;
    try {
      const tokens = await cliTokens(first, receiver);
      await first.stop();
      second = await startOAuthService({ location: first.location, port: first.port });
      assert.equal((await fetch(`${second.url}/v3/account`, bearer(tokens.access_token))).status, 200);
      const refreshed = await refresh(second.issuer, 'fx-cli', tokens.refresh_token);
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.equal(
        (await fetch(`${second.url}/v3/account`, bearer(refreshed.body.access_token as string))).status,
        200,
      );
      assert.equal((await refresh(second.issuer, 'fx-cli', tokens.refresh_token)).body.error, 'invalid_grant');
    } finally {
      await receiver.close();
      await (second ?? first).close();
    }
  });
});

describe('devAutoLogin', () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  before(async () => {
    test_ = await startOAuthService({ oauth: { devAutoLogin: 'dev' } });
    receiver = await LoopbackReceiver.start();
  });
  after(async () => {
    await receiver.close();
    await test_.close();
  });

  test('signs in the named account with no page at all (no password set)', async () => {
    const { verifier, challenge } = pkce();
    const step = await new Browser(test_.url).follow(
      authorizeUrl(test_.issuer, {
        client_id: 'fx-cli',
        redirect_uri: receiver.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(step.page, undefined);
    const code = (await receiver.deliver(step.redirect!)).get('code')!;
    const { body } = await redeemCode(
      test_.issuer,
      'fx-cli',
      { code, verifier, redirect: step.redirect! },
      receiver.redirectUri,
    );
    const json = (await (await fetch(`${test_.url}/v3/account`, bearer(body.access_token as string))).json()) as {
      name: string;
      credential: { kind: string };
    };
    assert.deepEqual([json.name, json.credential.kind], ['dev', 'oauth']);
  });
});
