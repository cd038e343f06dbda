// `fx service check-config` and `fx service --help`, from the settings table: what an ops reader runs before a start.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ServiceConfigErrorCode } from '../../../src/service/config-check.js';
import { SERVICE_SETTINGS } from '../../../src/service/settings/table.js';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { baseEnv, eventsOf, fx } from '../helpers.js';

let home: string;
before(async () => {
  home = await mkdtemp(join(tmpdir(), 'fx-check-config-'));
});
after(() => rm(home, { recursive: true, force: true }));

const SECRET = 'pw-that-must-not-print';

test('prints every setting of the role with its value and source, secrets hidden, and exits 0', async () => {
  const run = await fx(['service', 'check-config', '--role', 'worker', '--concurrency', '3'], {
    env: baseEnv(home, {
      FX_SERVICE_DATABASE_URL: `postgres://fx:${SECRET}@db:5432/fx`,
      FX_SERVICE_S3_BUCKET: 'renders',
      FX_SERVICE_S3_ACCESS_KEY_ID: 'AKID',
      FX_SERVICE_S3_SECRET_ACCESS_KEY: SECRET,
    }),
  });
  assert.equal(run.code, ExitCode.ok, run.stderr);
  assert.ok(!run.stdout.includes(SECRET) && !run.stderr.includes(SECRET));
  assert.match(run.stdout, /^FX_SERVICE_CONCURRENCY +3$/m);
  assert.match(run.stdout, /^FX_SERVICE_DATABASE_URL +postgres:\/\/fx:\*\*\*@db:5432\/fx$/m);
  assert.match(run.stdout, /^FX_SERVICE_S3_SECRET_ACCESS_KEY +\(set, hidden\)$/m);
  assert.match(run.stdout, /^FX_SERVICE_HEALTH_PORT +\(none: no HTTP on a worker\) +\(default\)$/m);
  // A worker serves no API: its port is not one of its settings.
  assert.doesNotMatch(run.stdout, /^FX_SERVICE_PORT /m);
});

test('--json gives each setting as an event field', async () => {
  const run = await fx(['service', 'check-config', '--json'], { env: baseEnv(home) });
  assert.equal(run.code, ExitCode.ok, run.stderr);
  const [result] = eventsOf(run, 'result') as { role: string; settings: { env: string; source: string }[] }[];
  assert.equal(result!.role, 'embedded');
  assert.ok(result!.settings.some((setting) => setting.env === 'FX_SERVICE_PORT' && setting.source === 'default'));
});

test('every bad setting is named at once, its value never echoed when secret, exit 3', async () => {
  const run = await fx(['service', 'check-config'], {
    env: baseEnv(home, {
      FX_SERVICE_PORT: 'eighty',
      FX_SERVICE_TRUSTED_PROXIES: 'proxy.local',
      FX_SERVICE_DATABASE_URL: `mysql://fx:${SECRET}@db/fx`,
    }),
  });
  assert.equal(run.code, ExitCode.invalid);
  assert.match(run.stderr, new RegExp(`^${ServiceConfigErrorCode.invalid}: 3 settings are invalid`, 'm'));
  for (const name of ['FX_SERVICE_PORT', 'FX_SERVICE_TRUSTED_PROXIES', 'FX_SERVICE_DATABASE_URL'])
    assert.match(run.stderr, new RegExp(`^  ${name}: `, 'm'));
  assert.ok(!run.stderr.includes(SECRET), run.stderr);
});

test('a --role that is no role, and a flag out of range, are usage errors', async () => {
  assert.equal((await fx(['service', 'check-config', '--role', 'boss'], { env: baseEnv(home) })).code, ExitCode.usage);
  assert.equal((await fx(['service', 'check-config', '--port', '70000'], { env: baseEnv(home) })).code, ExitCode.usage);
});

test('fx service --help lists each setting its role reads, from the table', async () => {
  for (const [command, role] of [
    [['service'], 'embedded'],
    [['service', 'api'], 'api'],
    [['service', 'worker'], 'worker'],
  ] as const) {
    const run = await fx([...command, '--help'], { env: baseEnv(home) });
    assert.equal(run.code, ExitCode.ok, run.stderr);
    for (const setting of Object.values(SERVICE_SETTINGS))
      assert.equal(
        run.stdout.includes(`  ${setting.env} `),
        (setting.roles as readonly string[]).includes(role),
        `${command.join(' ')} --help and ${setting.env}`,
      );
  }
});
