/**
 * A lock between `fx` processes over one file (created with O_EXCL, removed when done): two commands refreshing the
 * same stored sign-in at once would both spend the refresh token, and the second use of a rotated refresh token
 * revokes the sign-in. A lock left by a killed process is taken over once it is older than `staleMs`.
 */
import { open, rm, stat } from 'node:fs/promises';
import type { LockRunner } from '../auth/lock.js';

const RETRY_MS = 50;

export function fileLock(path: string, options: { staleMs?: number; waitMs?: number } = {}): LockRunner {
  const staleMs = options.staleMs ?? 30_000;
  const waitMs = options.waitMs ?? 60_000;
  return async (_name, task) => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await (await open(path, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(path).then(
          (info) => Date.now() - info.mtimeMs,
          () => 0,
        );
        if (age > staleMs || Date.now() > deadline) await rm(path, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    try {
      return await task();
    } finally {
      await rm(path, { force: true });
    }
  };
}
