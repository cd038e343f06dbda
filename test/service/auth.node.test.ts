import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createService } from '../../src/service/service.js';
import { childEnv, newTestLocation, openTestDb, removeTestLocation, type TestLocation } from './helpers/database.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import { compositionHtml, jsonInit, startTestService, zipInit, type TestService } from './helpers/harness.js';
import { projectZip } from './helpers/zip-builder.js';

const run = promisify(execFile);

interface ErrorJson {
  error: { code: string; message: string; param: string | null };
}

describe('bearer authentication', () => {
  let test_: TestService;
  before(async () => {
    test_ = await startTestService();
  });
  after(() => test_.close());

  const ENDPOINTS: [string, RequestInit][] = [
    ['/v3/assets', zipInit(projectZip({ 'index.html': compositionHtml() }), { 'idempotency-key': 'auth-1' })],
    ['/v3/renders', jsonInit({ url: 'https://example.com/' }, { 'idempotency-key': 'auth-2' })],
    ['/v3/renders', { method: 'GET' }],
    ['/v3/renders/rnd_x', { method: 'GET' }],
    ['/v3/renders/rnd_x', { method: 'DELETE' }],
    ['/v3/account', { method: 'GET' }],
  ];

  const CREDENTIALS: { name: string; header: string | undefined; code: string; challenge: RegExp }[] = [
    {
      name: 'no Authorization header',
      header: undefined,
      code: 'authentication_required',
      challenge: /^Bearer realm="fx"$/,
    },
    {
      name: 'a Basic credential',
      header: 'Basic dXNlcjpwYXNz',
      code: 'authentication_required',
      challenge: /^Bearer realm="fx"$/,
    },
    {
      name: 'an unknown API key',
      header: 'Bearer fx_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      code: 'invalid_token',
      challenge: /error="invalid_token"/,
    },
    {
      name: 'a token of no known kind',
      header: 'Bearer eyJhbGciOiJub25lIn0.e30.',
      code: 'invalid_token',
      challenge: /error="invalid_token"/,
    },
    { name: 'an empty bearer token', header: 'Bearer ', code: 'invalid_token', challenge: /error="invalid_token"/ },
    {
      name: 'a bearer token with spaces',
      header: 'Bearer a b',
      code: 'invalid_token',
      challenge: /error="invalid_token"/,
    },
  ];

  for (const credential of CREDENTIALS) {
    for (const [path, init] of ENDPOINTS) {
      test(`${credential.name} on ${init.method} ${path} → 401 ${credential.code}, nothing stored`, async () => {
        const headers = new Headers(init.headers);
        if (credential.header === undefined) headers.delete('authorization');
        else headers.set('authorization', credential.header);
        const response = await fetch(`${test_.url}${path}`, { ...init, headers });
        assert.equal(response.status, 401);
        assert.match(response.headers.get('www-authenticate') ?? '', credential.challenge);
        const body = (await response.json()) as ErrorJson;
        assert.deepEqual([body.error.code, body.error.param], [credential.code, 'Authorization']);
        assert.deepEqual(
          [await test_.count('assets'), await test_.count('renders'), await test_.count('idempotency_keys')],
          [0, 0, 0],
        );
        assert.deepEqual(await test_.storedAssetEntries(), []);
      });
    }
  }

  test('a revoked key → 401 invalid_token', async () => {
    const account = await test_.service.context.accounts.ensure('revoked', Date.now());
    const { id, key } = await test_.service.context.apiKeys.create(account.id);
    assert.equal((await test_.api('/v3/account', { headers: { authorization: `Bearer ${key}` } })).status, 200);
    assert.equal(await test_.service.context.apiKeys.revoke(id), true);
    const response = await test_.api('/v3/account', { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as ErrorJson).error.code, 'invalid_token');
  });

  test('the scheme is case-insensitive', async () => {
    assert.equal((await test_.api('/v3/account', { headers: { authorization: `bearer ${test_.key}` } })).status, 200);
  });

  test('unknown routes answer the error body with 404 route_not_found', async () => {
    const response = await fetch(`${test_.url}/v3/nothing-here`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      error: { code: 'route_not_found', message: 'no route GET /v3/nothing-here', param: null },
    });
  });

  test('keys are stored hashed: the database never holds the key', async () => {
    const db = await openTestDb(test_.location);
    try {
      const rows = await db.rows('SELECT * FROM api_keys');
      assert.ok(rows.length > 0);
      assert.ok(!JSON.stringify(rows).includes(test_.key));
      assert.ok(!JSON.stringify(rows).includes(test_.key.slice(20)));
    } finally {
      await db.close();
    }
  });
});

describe('admin command', () => {
  let location: TestLocation;
  before(async () => {
    location = await newTestLocation('fx-admin-test-');
  });
  after(() => removeTestLocation(location));

  const admin = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/service/admin.ts', ...args, '--data-dir', location.dataDir], {
      env: childEnv(location),
    });

  test('create-key prints a key once that the service accepts; revoke-key refuses it afterwards', async () => {
    const { stdout } = await admin('create-key', '--account', 'acme');
    const key = /api key \(shown once, store it now\): (fx_live_[A-Za-z0-9_-]{43})\n/.exec(stdout)?.[1];
    const keyId = /key id: (key_\S+)/.exec(stdout)?.[1];
    const secret = /webhook secret: (whsec_[A-Za-z0-9+/=]+)/.exec(stdout)?.[1];
    assert.ok(key && keyId && secret, stdout);
    const service = await createService({ ...location, render: createFfmpegRenderer() });
    try {
      const { url } = await service.listen(0);
      const account = await fetch(`${url}/v3/account`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await account.json()) as {
        name: string;
        webhook_secret: string;
        credential: { id: string; kind: string };
      };
      assert.deepEqual(
        [body.name, body.webhook_secret, body.credential],
        ['acme', secret, { id: keyId, kind: 'api_key' }],
      );
      assert.match(
        (await admin('list-keys', '--account', 'acme')).stdout,
        new RegExp(`${keyId}\\s+fx_live_\\S+…\\s+\\S+\\s+active`),
      );
      assert.equal((await admin('revoke-key', keyId)).stdout.trim(), `revoked ${keyId}`);
      assert.equal((await fetch(`${url}/v3/account`, { headers: { authorization: `Bearer ${key}` } })).status, 401);
    } finally {
      await service.close();
    }
  });

  test('an unknown command prints the usage and exits 2', async () => {
    await assert.rejects(
      admin('explode'),
      (error: { code: number; stderr: string }) =>
        error.code === 2 && /^unknown command "explode"\n\nUsage: fx-service-admin/.test(error.stderr),
    );
  });
});

describe('authenticator chain', () => {
  test('an added authenticator (the OAuth verifier slot) is tried after API keys and reported as its kind', async () => {
    const location = await newTestLocation('fx-chain-test-');
    let accountId = '';
    const service = await createService({
      ...location,
      render: createFfmpegRenderer(),
      authenticators: [
        {
          authenticate: async (token) =>
            token === 'oauth-access-token' ? { accountId, credentialId: 'grant_1', kind: 'oauth' } : undefined,
        },
      ],
    });
    try {
      accountId = (await service.context.accounts.ensure('oauth-user', Date.now())).id;
      const { url } = await service.listen(0);
      const response = await fetch(`${url}/v3/account`, { headers: { authorization: 'Bearer oauth-access-token' } });
      assert.deepEqual(((await response.json()) as { credential: unknown }).credential, {
        id: 'grant_1',
        kind: 'oauth',
      });
      assert.equal(
        (await fetch(`${url}/v3/account`, { headers: { authorization: 'Bearer other-token' } })).status,
        401,
      );
    } finally {
      await service.close();
      await removeTestLocation(location);
    }
  });
});
