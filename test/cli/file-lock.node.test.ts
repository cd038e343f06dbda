/**
 * The lock between `fx` processes over the credentials file, raced by real processes: a stale lock (its owner dead,
 * or silent past the bound) is taken over by exactly one of them, and a live one is never broken.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fileLock } from '../../src/cli/file-lock.js';
import { isFxError } from '../../src/runtime/errors.js';
import { tempProject } from './helpers.js';

const RACER = fileURLToPath(new URL('./fixtures/lock-racer.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

const staleLock = (pid: number) =>
  JSON.stringify({ pid, host: hostname(), token: 'left-by-a-killed-process', acquired_at: new Date().toISOString() });

/** Starts `count` racers at one moment; resolves with the log lines once all have exited. */
async function race(dir: string, count: number, options: { staleMs: number; waitMs: number; holdMs: number }) {
  const log = join(dir, 'log');
  await writeFile(log, '');
  const startAt = Date.now() + 4000;
  const args = [join(dir, 'credentials.lock'), log, startAt, options.staleMs, options.waitMs, options.holdMs];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', TSX, RACER, ...args.map(String)], { stdio: 'inherit' });
          child.on('error', reject);
          child.on('exit', () => resolve());
        }),
    ),
  );
  return (await readFile(log, 'utf8')).trim().split('\n');
}

/** Entries alternate enter/exit of one pid: no two holders at once. */
function assertExclusive(lines: readonly string[]) {
  for (let index = 0; index < lines.length; index += 2) {
    const [enter, pid] = lines[index]!.split(' ');
    assert.equal(enter, 'enter', lines.join('\n'));
    assert.equal(lines[index + 1], `exit ${pid}`, lines.join('\n'));
  }
}

describe('fileLock across processes', { timeout: 60_000 }, () => {
  test('six processes racing for a stale lock (owner dead, long silent): one at a time, all run', async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      await writeFile(path, staleLock(deadPid()));
      const old = new Date(Date.now() - 60_000);
      await utimes(path, old, old);
      const lines = await race(dir.path, 6, { staleMs: 1000, waitMs: 20_000, holdMs: 100 });
      assert.equal(lines.length, 12, lines.join('\n'));
      assertExclusive(lines);
      assert.deepEqual(await readdir(dir.path), ['log'], 'no lock, temp or takeover file left');
    } finally {
      await dir.cleanup();
    }
  });

  test('a live holder is never broken: a contender that waited its time is refused with cli_lock_busy', async () => {
    const dir = await tempProject();
    try {
      const lines = await race(dir.path, 2, { staleMs: 30_000, waitMs: 400, holdMs: 2000 });
      const entered = lines.filter((line) => line.startsWith('enter'));
      assert.equal(entered.length, 1, lines.join('\n'));
      assert.ok(
        lines.some((line) => / cli_lock_busy$/.test(line)),
        lines.join('\n'),
      );
    } finally {
      await dir.cleanup();
    }
  });
});

describe('fileLock in one process', () => {
  test('tasks of two holders never overlap; the lock file is gone after', async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      const lockA = fileLock(path);
      const lockB = fileLock(path);
      let inside = 0;
      let most = 0;
      const task = async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inside -= 1;
      };
      await Promise.all([lockA('x', task), lockB('x', task), lockA('x', task)]);
      assert.equal(most, 1);
      assert.equal(existsSync(path), false);
    } finally {
      await dir.cleanup();
    }
  });

  test('a lock left by a killed process is taken over once stale', async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      await writeFile(path, '');
      const old = new Date(Date.now() - 60_000);
      await utimes(path, old, old);
      assert.equal(await fileLock(path, { staleMs: 1000, waitMs: 2000 })('x', async () => 'ran'), 'ran');
    } finally {
      await dir.cleanup();
    }
  });
  test("a lock whose owner's pid is dead is taken over at once, not after the stale bound", async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      await writeFile(path, staleLock(deadPid()));
      const started = Date.now();
      assert.equal(await fileLock(path, { staleMs: 30_000, waitMs: 5000 })('x', async () => 'ran'), 'ran');
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
      assert.equal(existsSync(path), false);
    } finally {
      await dir.cleanup();
    }
  });

  test('an unreadable lock (not ours, no pid) counts as stale only by its age', async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      await writeFile(path, 'garbage');
      const busy = await fileLock(path, { staleMs: 30_000, waitMs: 200 })('x', async () => 'ran').catch(
        (error: unknown) => error,
      );
      assert.ok(isFxError(busy, 'cli_lock_busy'), String(busy));
      const old = new Date(Date.now() - 60_000);
      await utimes(path, old, old);
      assert.equal(await fileLock(path, { staleMs: 30_000, waitMs: 200 })('x', async () => 'ran'), 'ran');
    } finally {
      await dir.cleanup();
    }
  });

  test('a holder keeps its lock fresh while the task runs longer than the stale bound', async () => {
    const dir = await tempProject();
    try {
      const path = join(dir.path, 'credentials.lock');
      let inside = 0;
      let most = 0;
      const task = async () => {
        most = Math.max(most, (inside += 1));
        await new Promise((resolve) => setTimeout(resolve, 700));
        inside -= 1;
      };
      const lock = fileLock(path, { staleMs: 300, waitMs: 5000 });
      await Promise.all([lock('x', task), lock('x', task)]);
      assert.equal(most, 1);
    } finally {
      await dir.cleanup();
    }
  });
});
