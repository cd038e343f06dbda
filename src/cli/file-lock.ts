/**
 * A lock between `fx` processes over one file: two commands refreshing the same stored sign-in at once would both
 * spend the refresh token, and the second use of a rotated refresh token revokes the sign-in.
 *
 * The lock file holds its owner (`pid`, `host`, a random `token`) and appears whole, by `link` of a written temp
 * file (fails if the lock exists). Its owner touches it while the task runs. It is stale when its owner is a dead
 * process of this host, or when it has not been touched for `staleMs`. A stale lock is replaced — never removed
 * first — by whoever creates `<lock>.takeover-<token>` (again by `link`: one winner per stale owner), which then
 * renames its own lock over the stale one. The owner releases through the same marker, so a release and a
 * takeover never both act on one lock. A live lock is never broken: after `waitMs` the caller gets `cli_lock_busy`.
 */
import { randomUUID } from 'node:crypto';
import { link, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { LockRunner } from '../auth/lock.js';
import { cliError, CliErrorCode } from './errors.js';

const RETRY_MS = 50;

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly acquired_at: string;
}

/** A lock file as found: its owner when readable, and the key that names this one lock (the token, else the inode). */
interface Found {
  readonly owner: LockOwner | undefined;
  readonly key: string;
  readonly touchedMs: number;
}

export function fileLock(path: string, options: { staleMs?: number; waitMs?: number } = {}): LockRunner {
  const staleMs = options.staleMs ?? 30_000;
  const waitMs = options.waitMs ?? 60_000;
  return async (_name, task) => {
    const mine: LockOwner = {
      pid: process.pid,
      host: hostname(),
      token: randomUUID(),
      acquired_at: new Date().toISOString(),
    };
    await acquire(path, mine, staleMs, Date.now() + waitMs);
    // Touched well within the bound, so a live holder never looks stale.
    const heartbeat = setInterval(() => {
      const now = new Date();
      utimes(path, now, now).catch(() => undefined);
    }, staleMs / 3);
    heartbeat.unref();
    try {
      return await task();
    } finally {
      clearInterval(heartbeat);
      await release(path, mine);
    }
  };
}

async function acquire(path: string, mine: LockOwner, staleMs: number, deadline: number): Promise<void> {
  for (;;) {
    if (await create(path, mine)) return;
    const found = await inspect(path);
    if (found === undefined) continue; // released meanwhile: try again at once
    if (isStale(found, staleMs) && (await replace(path, found.key, mine))) return;
    if (Date.now() > deadline) {
      const who = found.owner ? `process ${found.owner.pid} on ${found.owner.host}` : 'an unknown process';
      throw cliError(
        CliErrorCode.lockBusy,
        `${JSON.stringify(path)} is held by ${who}; if no fx command is running, remove it`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** Creates `target` holding `owner`, whole, unless it exists (then `false`). */
async function create(target: string, owner: LockOwner): Promise<boolean> {
  const temporary = await written(target, owner);
  try {
    await link(temporary, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function written(target: string, owner: LockOwner): Promise<string> {
  const temporary = `${target}.${owner.token}.tmp`;
  await writeFile(temporary, JSON.stringify(owner), { mode: 0o600 });
  return temporary;
}

/** Runs `act` as the one process allowed to change the lock `key` names; `false` when another one is. */
async function asSoleActor(path: string, key: string, mine: LockOwner, act: () => Promise<boolean>): Promise<boolean> {
  const marker = `${path}.takeover-${key}`;
  if (!(await create(marker, mine))) return false;
  try {
    return await act();
  } finally {
    await rm(marker, { force: true });
  }
}

/** Puts `mine` in place of the stale lock `key`, if that lock is still there. */
const replace = (path: string, key: string, mine: LockOwner) =>
  asSoleActor(path, key, mine, async () => {
    if ((await inspect(path))?.key !== key) return false;
    await rename(await written(path, mine), path);
    return true;
  });

/** Removes the lock if it is still `mine` (a takeover may have replaced it while the task ran long). */
const release = (path: string, mine: LockOwner) =>
  asSoleActor(path, mine.token, mine, async () => {
    if ((await inspect(path))?.key === mine.token) await rm(path, { force: true });
    return true;
  });

async function inspect(path: string): Promise<Found | undefined> {
  let text: string;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = parseOwner(text);
  return { owner, key: owner?.token ?? `inode-${info.ino}`, touchedMs: info.mtimeMs };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    const valid =
      Number.isSafeInteger(value.pid) &&
      typeof value.host === 'string' &&
      typeof value.token === 'string' &&
      /^[\w-]{1,64}$/.test(value.token);
    return valid ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function isStale(found: Found, staleMs: number): boolean {
  if (Date.now() - found.touchedMs > staleMs) return true;
  const { owner } = found;
  return owner !== undefined && owner.host === hostname() && !isAlive(owner.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
