/** The command table as a user meets it: help, unknown commands, completion, and `fx service` running for real. */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/commands.js';
import { freePort } from '../service/helpers/oauth-flow.js';
import { waitFor } from '../service/helpers/harness.js';
import { baseEnv, eventsOf, fx, tempProject } from './helpers.js';

test('fx --help lists every command; each command has --help with its flags', async () => {
  const top = await fx(['--help']);
  assert.equal(top.code, 0);
  for (const entry of COMMANDS) assert.match(top.stdout, new RegExp(`\\n  ${entry.name} `));
  for (const entry of COMMANDS) {
    const { command } = await entry.load();
    assert.equal(command.name, entry.name, 'the table and the module agree on the name');
  }
  const help = await fx(['cloud', 'render', '--help']);
  assert.equal(help.code, 0);
  for (const flag of [
    '--fps',
    '--quality',
    '--format',
    '--resolution',
    '--aspect-ratio',
    '--composition',
    '--output',
    '--asset-id',
    '--url',
    '--variables',
    '--variables-file',
    '--strict-variables',
    '--no-wait',
    '--callback-url',
    '--callback-id',
    '--poll-interval',
    '--max-wait',
    '--idempotency-key',
    '--dry-run',
    '--batch',
    '--batch-concurrency',
    '--json',
  ]) {
    assert.match(help.stdout, new RegExp(`${flag}\\b`), flag);
  }
});

test('an unknown command: exit 2, code and hint', async () => {
  const run = await fx(['clod', 'render', '--json']);
  assert.equal(run.code, 2);
  assert.deepEqual(eventsOf(run, 'error')[0], {
    event: 'error',
    code: 'cli_command_unknown',
    message: 'unknown command "clod render"',
    hint: 'run `fx --help` to see the commands',
    exit_code: 2,
  });
});

test('a group word lists its commands: with --help exit 0, alone a usage error (2)', async () => {
  const help = await fx(['cloud', '--help']);
  assert.equal(help.code, 0);
  for (const name of ['cloud render', 'cloud list', 'cloud get', 'cloud delete'])
    assert.match(help.stdout, new RegExp(`  ${name} `));
  assert.doesNotMatch(help.stdout, /auth login/);
  const bare = await fx(['auth']);
  assert.equal(bare.code, 2);
  assert.match(bare.stdout, /auth login/);
});

test('fx service --port refuses what is not a port, before starting anything', async () => {
  for (const port of ['abc', '-1', '70000', '80.5']) {
    const run = await fx(['service', `--port=${port}`, '--json']);
    assert.equal(run.code, 2, port);
    assert.equal(eventsOf(run, 'error')[0]?.code, 'cli_flag_invalid', port);
  }
});

test('fx service api and worker refuse to start without a shared database, or with a bad concurrency', async () => {
  for (const args of [
    ['service', 'api'],
    ['service', 'worker'],
    ['service', 'worker', '--concurrency', '2'],
  ]) {
    const run = await fx([...args, '--json']);
    assert.equal(run.code, 2, args.join(' '));
    assert.equal(eventsOf(run, 'error')[0]?.code, 'cli_flag_invalid', args.join(' '));
    assert.match(String(eventsOf(run, 'error')[0]?.message), /--database-url/);
  }
  for (const concurrency of ['0', 'two', '65']) {
    const run = await fx([
      'service',
      'worker',
      '--concurrency',
      concurrency,
      '--database-url',
      'postgres://x/y',
      '--json',
    ]);
    assert.equal(run.code, 2, concurrency);
    assert.equal(eventsOf(run, 'error')[0]?.code, 'cli_flag_invalid', concurrency);
  }
  const help = await fx(['service', '--help']);
  for (const name of ['service api', 'service worker']) assert.match(help.stdout, new RegExp(name));
});

test('a wrong number of arguments is a usage error', async () => {
  assert.equal((await fx(['cloud', 'get'])).code, 2);
  assert.equal((await fx(['metadata', 'a.html', 'b.html'])).code, 2);
});

test('completion prints a bash function that completes commands and flags', async () => {
  const run = await fx(['completion']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /complete -F _fx fx/);
  assert.match(run.stdout, /"cloud render"\) flags="[^"]*--no-wait/);
});

test('fx service create-key, then fx service: the key works against the running service', async () => {
  const dir = await tempProject();
  const port = await freePort();
  const dataDir = join(dir.path, 'data');
  try {
    const created = await fx(['service', 'create-key', '--account', 'me', '--data-dir', dataDir, '--json']);
    assert.equal(created.code, 0, created.stderr);
    const key = String(eventsOf(created, 'result')[0]!.api_key);
    assert.match(key, /^fx_live_/);
    let stop = () => {};
    const serving = fx(['service', '--port', String(port), '--data-dir', dataDir], {
      env: { PATH: process.env.PATH, HOME: dir.path },
      onSpawn: (child) => (stop = () => child.kill('SIGINT')),
    });
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(
        () =>
          fetch(`${url}/v3/account`).then(
            () => true,
            () => undefined,
          ),
        20_000,
        'the service',
      );
      const status = await fx(['auth', 'status', '--json'], {
        env: baseEnv(dir.path, { CLOUD_API_URL: url, CLOUD_API_KEY: key }),
      });
      assert.equal(status.code, 0, status.stderr);
      assert.equal((eventsOf(status, 'result')[0]!.account as { name: string }).name, 'me');
    } finally {
      stop();
      assert.equal((await serving).code, 0, 'Ctrl-C stops the service cleanly');
    }
  } finally {
    await dir.cleanup();
  }
});

test('fx service webhook-secret shows the secret create-key printed; --rotate replaces it', async () => {
  const dir = await tempProject();
  const dataDir = join(dir.path, 'data');
  try {
    const created = await fx(['service', 'create-key', '--account', 'me', '--data-dir', dataDir, '--json']);
    const secret = String(eventsOf(created, 'result')[0]!.webhook_secret);
    assert.match(secret, /^whsec_/);
    const human = await fx(['service', 'create-key', '--account', 'me', '--data-dir', dataDir]);
    assert.match(human.stderr, new RegExp(`webhook secret of the account: ${secret.replace(/[+/=]/g, '\\$&')}`));
    const shown = await fx(['service', 'webhook-secret', '--account', 'me', '--data-dir', dataDir]);
    assert.equal(shown.stdout.trim(), secret);
    const rotated = await fx(['service', 'webhook-secret', '--account', 'me', '--rotate', '--data-dir', dataDir]);
    assert.match(rotated.stdout.trim(), /^whsec_/);
    assert.notEqual(rotated.stdout.trim(), secret);
    const unknown = await fx(['service', 'webhook-secret', '--account', 'nobody', '--data-dir', dataDir, '--json']);
    assert.equal(unknown.code, 2);
    assert.equal(eventsOf(unknown, 'error')[0]?.code, 'cli_flag_invalid');
  } finally {
    await dir.cleanup();
  }
});

test('fx-service-admin: --help prints its commands; a bad option or command is a usage error, not a stack trace', async () => {
  const dir = await tempProject();
  const admin = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(process.cwd(), 'src/service/admin.ts'), ...args],
        { env: { ...process.env, FX_SERVICE_DATA_DIR: join(dir.path, 'data') } },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
  try {
    const help = await admin('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: fx-service-admin <command>/);
    assert.match(help.stdout, /webhook-secret --account <name> \[--rotate\]/);
    for (const args of [['--bogus'], ['frob'], []]) {
      const refused = await admin(...args);
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, /Usage: fx-service-admin/);
      assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
    }
    assert.deepEqual(await readdir(dir.path), [], 'nothing written for a refused command');
  } finally {
    await dir.cleanup();
  }
});
