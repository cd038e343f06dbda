// Password hashing (src/service/oauth/passwords.ts): scrypt hashes, their checks and the lengths refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashPassword, verifyPassword } from '../../../src/service/oauth/passwords.js';

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
