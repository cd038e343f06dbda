// The authorization server's parts on their own: settings, password hashing, the records adapter, the admin command.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../src/service/db/open-stores.js';
import type { Stores } from '../../src/service/db/stores.js';
import { sha256Hex } from '../../src/service/ids.js';
import { LoginThrottle } from '../../src/service/oauth/login-throttle.js';
import { hashPassword, PasswordStore, verifyPassword } from '../../src/service/oauth/passwords.js';
import { DEFAULT_ISSUER, resolveOAuthSettings, type OAuthSettings } from '../../src/service/oauth/settings.js';
import { WorkLimit, WorkLimitBusyError } from '../../src/service/oauth/work-limit.js';
import {
  childEnv,
  newTestLocation,
  openTestDb,
  removeTestLocation,
  type TestDb,
  type TestLocation,
} from './helpers/database.js';

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

describe('LoginThrottle', () => {
  const WINDOW = 900_000;
  const failed = (throttle: LoginThrottle, times: number, start = 0, account = 'alice', address = '192.0.2.1') => {
    for (let index = 0; index < times; index++) throttle.recordFailure(account, address, start + index * 1000);
  };

  test('4 failures: still allowed', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 4);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 4_000), 0);
  });

  test('5 failures: refused until the first of them leaves the window', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 5_000), WINDOW - 5_000);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW - 1), 1);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW), 0);
  });

  test('a failure once allowed again counts from the newest failures (sliding window)', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    throttle.recordFailure('alice', '192.0.2.1', WINDOW);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW), 1_000);
  });

  test('another address or another account is not affected', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.2', 5_000), 0);
    assert.equal(throttle.retryAfterMs('bob', '192.0.2.1', 5_000), 0);
  });

  test('a success clears the count', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 4);
    throttle.recordSuccess('alice', '192.0.2.1');
    failed(throttle, 4, 10_000);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 20_000), 0);
  });

  test('the table is capped: the least recently failed pair is forgotten first', () => {
    const throttle = new LoginThrottle(1, WINDOW, 2);
    for (const account of ['a', 'b', 'c']) throttle.recordFailure(account, '192.0.2.1', 0);
    assert.deepEqual(
      ['a', 'b', 'c'].map((account) => throttle.retryAfterMs(account, '192.0.2.1', 1) > 0),
      [false, true, true],
    );
  });
});

describe('WorkLimit', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };

  test('runs at most `concurrency` tasks at once, queues `queue` more, refuses the rest at once', async () => {
    const limit = new WorkLimit(2, 1);
    let running = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const task = (gate: { promise: Promise<void> }) => async () => {
      most = Math.max(most, ++running);
      await gate.promise;
      running--;
    };
    const runs = gates.map((gate) => limit.run(task(gate)));
    await assert.rejects(
      limit.run(async () => {}),
      WorkLimitBusyError,
    );
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    assert.equal(most, 2);
  });

  test('a failing task frees its slot', async () => {
    const limit = new WorkLimit(1, 0);
    await assert.rejects(
      limit.run(async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await limit.run(async () => 'next'), 'next');
  });

  test('waiting tasks run in order as slots free', async () => {
    const limit = new WorkLimit(1, 3);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((index) => limit.run(async () => void order.push(index))));
    assert.deepEqual(order, [1, 2, 3, 4]);
  });
});

describe('passwords', () => {
  test('a hash verifies its password and nothing else', async () => {
    const hash = await hashPassword('correct horse battery');
    assert.match(hash, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
    assert.equal(await verifyPassword('', hash), false);
  });

  test('two hashes of one password differ (salt)', async () => {
    assert.notEqual(await hashPassword('correct horse battery'), await hashPassword('correct horse battery'));
  });

  test('NFC and NFD spellings of a password are the same password', async () => {
    assert.equal(await verifyPassword('caf\u0065\u0301 au lait', await hashPassword('caf\u00e9 au lait')), true);
  });

  test('a password under 8 characters → password_too_short', async () => {
    await assert.rejects(hashPassword('short'), { code: 'password_too_short' });
  });

  test('a password over 1024 characters → password_too_long', async () => {
    await assert.rejects(hashPassword('x'.repeat(1025)), { code: 'password_too_long' });
  });

  const MALFORMED = ['', 'plain', 'bcrypt$x$y', 'scrypt$32768$8$1$$', 'scrypt$32768$8$1$c2FsdA'];
  for (const hash of MALFORMED)
    test(`a malformed stored hash ${JSON.stringify(hash)} verifies nothing`, async () =>
      assert.equal(await verifyPassword('anything at all', hash), false));
});

describe('the OAuth records and PasswordStore', () => {
  let location: TestLocation;
  let stores: Stores;
  let db: TestDb;
  let clock = 1_000_000;
  const now = () => clock;
  before(async () => {
    location = await newTestLocation('fx-oauth-units-');
    stores = await openStores({ ...location, now });
    db = await openTestDb(location);
  });
  after(async () => {
    await db.close();
    await stores.close();
    await removeTestLocation(location);
  });

  const row = async (model: string, id: string) =>
    (await db.rows('SELECT * FROM oauth_records WHERE model = ? AND id = ?', model, id))[0];

  test('refresh tokens are stored by their SHA-256, without their value in the payload', async () => {
    const adapter = stores.oauth.adapter('RefreshToken');
    await adapter.upsert('rt-secret-value', { jti: 'rt-secret-value', grantId: 'g1', kind: 'RefreshToken' }, 60);
    assert.equal(await row('RefreshToken', 'rt-secret-value'), undefined);
    const stored = (await row('RefreshToken', sha256Hex('rt-secret-value')))!;
    assert.doesNotMatch(String(stored.payload), /rt-secret-value/);
    assert.deepEqual(await adapter.find('rt-secret-value'), {
      jti: 'rt-secret-value',
      grantId: 'g1',
      kind: 'RefreshToken',
    });
  });

  test('grants and sessions are stored by their id', async () => {
    const adapter = stores.oauth.adapter('Grant');
    await adapter.upsert('grant-1', { jti: 'grant-1', accountId: 'acct_a' }, 60);
    assert.ok(await row('Grant', 'grant-1'));
    assert.equal(await stores.oauth.grantIsLive('grant-1', clock), true);
  });

  test('a record is gone once expired, and purged', async () => {
    const adapter = stores.oauth.adapter('Interaction');
    await adapter.upsert('i-1', { jti: 'i-1' }, 10);
    assert.ok(await adapter.find('i-1'));
    clock += 10_000;
    assert.equal(await adapter.find('i-1'), undefined);
    assert.ok((await stores.oauth.purgeExpired(clock)) >= 1);
    assert.equal(await row('Interaction', 'i-1'), undefined);
  });

  test('consume marks once; a second consume (a concurrent replay) throws invalid_grant', async () => {
    const adapter = stores.oauth.adapter('AuthorizationCode');
    await adapter.upsert('code-1', { jti: 'code-1', grantId: 'g2' }, 60);
    await adapter.consume('code-1');
    assert.equal(typeof (await adapter.find('code-1'))?.consumed, 'number');
    await assert.rejects(adapter.consume('code-1'), { error: 'invalid_grant' });
  });

  test('findByUid finds a session', async () => {
    const adapter = stores.oauth.adapter('Session');
    await adapter.upsert('session-1', { jti: 'session-1', uid: 'uid-1', accountId: 'acct_a' }, 60);
    assert.deepEqual(await adapter.findByUid('uid-1'), { jti: 'session-1', uid: 'uid-1', accountId: 'acct_a' });
    assert.equal(await adapter.findByUid('uid-2'), undefined);
  });

  test("revokeByGrantId removes that model's records of the grant only", async () => {
    const tokens = stores.oauth.adapter('RefreshToken');
    const codes = stores.oauth.adapter('AuthorizationCode');
    await tokens.upsert('rt-a', { grantId: 'g3' }, 60);
    await tokens.upsert('rt-b', { grantId: 'g4' }, 60);
    await codes.upsert('code-a', { grantId: 'g3' }, 60);
    await tokens.revokeByGrantId('g3');
    assert.deepEqual(
      [await tokens.find('rt-a'), Boolean(await tokens.find('rt-b')), Boolean(await codes.find('code-a'))],
      [undefined, true, true],
    );
  });

  test('destroy removes a record', async () => {
    const adapter = stores.oauth.adapter('Grant');
    await adapter.upsert('grant-2', { jti: 'grant-2' }, 60);
    await adapter.destroy('grant-2');
    assert.equal(await stores.oauth.grantIsLive('grant-2', clock), false);
  });

  test('PasswordStore: only the right password of an account with one passes', async () => {
    const account = await stores.accounts.ensure('carol', Date.now());
    const passwords = new PasswordStore(stores.passwords);
    assert.equal(await passwords.check(account.id, 'correct horse battery'), false);
    await passwords.set(account.id, 'correct horse battery');
    assert.equal(await passwords.check(account.id, 'correct horse battery'), true);
    assert.equal(await passwords.check(account.id, 'wrong horse battery'), false);
    assert.equal(await passwords.check(undefined, 'correct horse battery'), false);
    const [stored] = await db.rows('SELECT hash FROM account_passwords WHERE account_id = ?', account.id);
    assert.doesNotMatch(String(stored!.hash), /horse/);
  });
});

describe('admin.ts set-password', () => {
  let location: TestLocation;
  before(async () => {
    location = await newTestLocation('fx-oauth-admin-');
  });
  after(() => removeTestLocation(location));

  const admin = (stdin: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/service/admin.ts', ...args, '--data-dir', location.dataDir],
        { env: childEnv(location) },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin!.end(stdin);
    });

  test('reads the password from stdin, creates the account, stores a hash that verifies', async () => {
    const result = await admin('piped password here\n', 'set-password', '--account', 'dave');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^password set for account acct_\S+ \(dave\)\n$/);
    assert.doesNotMatch(result.stdout + result.stderr, /piped password/);
    const stores = await openStores(location);
    try {
      const account = await stores.accounts.findByName('dave');
      assert.equal(await new PasswordStore(stores.passwords).check(account!.id, 'piped password here'), true);
    } finally {
      await stores.close();
    }
  });

  test('a too short password → exit 1 with password_too_short, no account or password stored', async () => {
    const result = await admin('short\n', 'set-password', '--account', 'erin');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^password_too_short: /);
    const stores = await openStores(location);
    const db = await openTestDb(location);
    try {
      assert.equal(await db.count('account_passwords'), 1);
      assert.equal(await stores.accounts.findByName('erin'), undefined);
    } finally {
      await db.close();
      await stores.close();
    }
  });

  test('without --account → usage, exit 2', async () => {
    const result = await admin('', 'set-password');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /set-password --account <name>/);
  });
});
