// The OAuth records (src/service/oauth/adapter.ts, on either database) and PasswordStore (oauth/passwords.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../../src/service/db/open-stores.js';
import type { Stores } from '../../../src/service/db/stores.js';
import { sha256Hex } from '../../../src/service/ids.js';
import { PasswordStore } from '../../../src/service/oauth/passwords.js';
import {
  newTestLocation,
  openTestDb,
  removeTestLocation,
  type TestDb,
  type TestLocation,
} from '../helpers/database.js';

describe('the OAuth records and PasswordStore', () => {
  let location: TestLocation;
  let stores: Stores;
  let db: TestDb;
  let clock = 1_000_000;
  const now = () => clock;
  before(async () => {
    location = await newTestLocation('fx-oauth-records-');
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
