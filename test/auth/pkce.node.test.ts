// PKCE through the function every authorization request uses (src/auth/pkce.ts → oauth4webapi).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPkce, pkceChallenge } from '../../src/auth/pkce.js';

test('RFC 7636 appendix B: the S256 challenge of the example verifier', async () => {
  assert.equal(
    await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
    'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  );
});

test('a fresh pair: a 43-character base64url verifier (32 random bytes) and its challenge; never the same twice', async () => {
  const first = await createPkce();
  const second = await createPkce();
  assert.match(first.verifier, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(first.challenge, await pkceChallenge(first.verifier));
  assert.notEqual(first.verifier, second.verifier);
});
