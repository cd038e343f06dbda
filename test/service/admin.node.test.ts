// admin.ts set-password (src/service/admin.ts): the password from stdin, never from the arguments.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../src/service/db/open-stores.js';
import { PasswordStore } from '../../src/service/oauth/passwords.js';
import { childEnv, newTestLocation, openTestDb, removeTestLocation, type TestLocation } from './helpers/database.js';

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
