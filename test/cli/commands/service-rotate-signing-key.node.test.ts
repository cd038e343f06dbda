// `fx service rotate-signing-key`: a new signing key first, the one it replaces kept verifying.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { openStores } from '../../../src/service/db/open-stores.js';
import { SIGNING_KEYS_SETTING } from '../../../src/service/oauth/signing-keys.js';
import { baseEnv, eventsOf, fx } from '../helpers.js';

let home: string;
before(async () => {
  home = await mkdtemp(join(tmpdir(), 'fx-rotate-'));
});
after(() => rm(home, { recursive: true, force: true }));

test('each rotation puts a new key first and keeps the one it replaces', async () => {
  const dataDir = join(home, 'service');
  const rotate = () => fx(['service', 'rotate-signing-key', '--data-dir', dataDir, '--json'], { env: baseEnv(home) });
  const first = await rotate();
  assert.equal(first.code, ExitCode.ok, first.stderr);
  const second = await rotate();
  const [one] = eventsOf(first, 'result') as { kid: string; kept: string[] }[];
  const [two] = eventsOf(second, 'result') as { kid: string; kept: string[]; dropped: string[] }[];
  assert.notEqual(one!.kid, two!.kid);
  assert.ok(two!.kept.includes(one!.kid), JSON.stringify(two));
  assert.deepEqual(two!.dropped, []);
  const stores = await openStores({ dataDir });
  try {
    const { keys } = JSON.parse((await stores.settings.get(SIGNING_KEYS_SETTING))!) as { keys: { kid: string }[] };
    assert.equal(keys[0]!.kid, two!.kid);
    assert.ok(keys.some((key) => key.kid === one!.kid));
  } finally {
    await stores.close();
  }
});
