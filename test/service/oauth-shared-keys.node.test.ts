// The authorization server's signing keys are the database's (issue 31 §5): two API processes with data folders of
// their own on one database accept each other's tokens; a key kept in the data folder's file by an older service
// is taken over; a rotation keeps the old key verifying until its tokens have expired, and a process that did not
// rotate learns the new key from the database.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../src/service/db/open-stores.js';
import { SIGNING_ALG, SIGNING_KEYS_FILE } from '../../src/service/oauth/constants.js';
import { rotateSigningKeys } from '../../src/service/oauth/signing-keys.js';
import { newTestLocation, onPostgres, removeTestLocation } from './helpers/database.js';
import {
  bearer,
  cliTokens,
  LoopbackReceiver,
  signJwt,
  startOAuthService,
  storedSigningKeys,
  type OAuthTestService,
} from './helpers/oauth-flow.js';

const TEN_MINUTES = 600_000;
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;

let receiver: LoopbackReceiver;
before(async () => {
  receiver = await LoopbackReceiver.start();
});
after(() => receiver.close());

describe(
  'two API processes, a data folder each, one database',
  { skip: !onPostgres && 'SQLite is a file of one data folder' },
  () => {
    let a: OAuthTestService;
    let b: OAuthTestService;
    let otherFolder: string;
    before(async () => {
      a = await startOAuthService();
      otherFolder = await mkdtemp(join(tmpdir(), 'fx-oauth-other-'));
      // Behind one public address: the same issuer.
      b = await startOAuthService({ location: { ...a.location, dataDir: otherFolder }, oauth: { issuer: a.issuer } });
      await a.account('alice');
    });
    after(async () => {
      await b?.stop();
      await a?.close();
      await rm(otherFolder, { recursive: true, force: true });
    });

    test('a token signed in through one is accepted by the other', async () => {
      const { access_token: token } = await cliTokens(a, receiver);
      for (const api of [a, b])
        assert.equal((await fetch(`${api.url}/v3/account`, bearer(token))).status, 200, api.url);
    });
  },
);

describe('keys taken over from the data folder, and rotated', () => {
  let service: OAuthTestService;
  let legacyKid: string;
  before(async () => {
    const location = await newTestLocation('fx-oauth-keys-');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    legacyKid = randomBytes(12).toString('base64url');
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: legacyKid, alg: SIGNING_ALG, use: 'sig' };
    await writeFile(join(location.dataDir, SIGNING_KEYS_FILE), JSON.stringify({ keys: [jwk] }), { mode: 0o600 });
    service = await startOAuthService({ location });
    await service.account('alice');
  });
  after(() => service?.close());

  test("an older service's key file becomes the database's key: its tokens stay valid", async () => {
    assert.deepEqual(
      (await storedSigningKeys(service)).map((key) => key.kid),
      [legacyKid],
    );
    const { access_token: token } = await cliTokens(service, receiver);
    assert.equal(kidOf(token), legacyKid);
  });

  test('after a rotation by another process, tokens of the new key and of the old one are both accepted', async () => {
    const { access_token: old } = await cliTokens(service, receiver);
    const stores = await openStores(service.location);
    try {
      const { kid, kept } = await rotateSigningKeys(stores.settings, TEN_MINUTES);
      assert.deepEqual(kept, [legacyKid]);
      const [newest] = await storedSigningKeys(service);
      assert.equal(newest!.kid, kid);
      // As the rotating process's authorization server would sign it: same claims, the new key.
      const token = signJwt(
        { alg: SIGNING_ALG, typ: 'at+jwt', kid },
        claimsOf(old),
        createPrivateKey({ key: newest as never, format: 'jwk' }),
      );
      assert.equal((await fetch(`${service.url}/v3/account`, bearer(token))).status, 200);
      assert.equal((await fetch(`${service.url}/v3/account`, bearer(old))).status, 200);
    } finally {
      await stores.close();
    }
  });

  test('a key retired longer ago than the tokens live goes at the next rotation; a fresh one stays', async () => {
    const stores = await openStores(service.location);
    try {
      const before = (await storedSigningKeys(service)).map((key) => key.kid);
      const { kept, dropped } = await rotateSigningKeys(stores.settings, TEN_MINUTES, Date.now() + 2 * TEN_MINUTES);
      // The legacy key was retired by the rotation above, ten minutes' life ago and more; the key it put first
      // is retired now.
      assert.deepEqual(dropped, [legacyKid]);
      assert.deepEqual(kept, [before[0]]);
    } finally {
      await stores.close();
    }
  });

  test('two rotations at once both land, one after the other', async () => {
    const stores = [await openStores(service.location), await openStores(service.location)];
    try {
      const rotated = await Promise.all(stores.map((store) => rotateSigningKeys(store.settings, TEN_MINUTES)));
      const kids = (await storedSigningKeys(service)).map((key) => key.kid);
      for (const { kid } of rotated) assert.ok(kids.includes(kid), `${kid} in ${kids}`);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

test('no key file is written to a fresh data folder', async () => {
  const location = await newTestLocation('fx-oauth-fresh-');
  const service = await startOAuthService({ location });
  try {
    assert.equal((await storedSigningKeys(service)).length, 1);
  } finally {
    await service.close();
  }
  await removeTestLocation(location);
});
