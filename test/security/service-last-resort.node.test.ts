// Issue 8 item 13: the service process (src/service/main.ts) logs an unhandled rejection and keeps serving; after an
// uncaught exception it stops in order and exits with code 1 (see src/service/last-resort.ts for why the two differ).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { tempDir } from '../render/helpers.js';
import { waitFor } from '../service/helpers/harness.js';

const MAIN = fileURLToPath(new URL('../../src/service/main.ts', import.meta.url));
const FAULTS = fileURLToPath(new URL('./helpers/plant-faults.ts', import.meta.url));

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
}

async function startMain(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', FAULTS, MAIN], {
    env: { ...process.env, FX_SERVICE_DATA_DIR: dataDir, FX_SERVICE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await waitFor(
    () => /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? (child.exitCode !== null ? 'exited' : undefined),
    60_000,
    'the service to listen',
  );
  assert.notEqual(url, 'exited', output);
  return { child, url, output: () => output };
}

const answers = async (url: string) => (await fetch(`${url}/v3/account`)).status;

test(
  'an unhandled rejection is logged and the service keeps serving; an uncaught exception stops it with code 1',
  { timeout: 120_000 },
  async () => {
    const dir = await tempDir('fx-last-resort-');
    const service = await startMain(dir.path);
    try {
      assert.equal(await answers(service.url), 401);
      service.child.kill('SIGUSR2');
      await waitFor(
        () => (service.output().includes('unhandled rejection') ? true : undefined),
        10_000,
        'the rejection to be logged',
      );
      assert.match(service.output(), /planted rejection/);
      assert.equal(service.child.exitCode, null, service.output());
      assert.equal(await answers(service.url), 401, 'the service still answers after an unhandled rejection');

      const exited = once(service.child, 'exit');
      service.child.kill('SIGHUP');
      const [code] = await exited;
      assert.equal(code, 1, service.output());
      // The service logs JSON lines: the exception's line has its message and the error.
      const stopped = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: string; msg: string; error?: string })
        .find((line) => line.msg === 'uncaught exception (the service stops)');
      assert.equal(stopped?.level, 'fatal', service.output());
      assert.match(stopped.error ?? '', /planted exception/);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      await dir.cleanup();
    }
  },
);
