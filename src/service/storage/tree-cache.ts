import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { inside } from './local-path.js';

/**
 * Local copies of stored trees, for the renderer of a storage that is not a local folder (S3). A tree is fetched
 * once and kept while it is in use; released trees stay for the next render of the same project, at most
 * `maxIdle` of them (the longest unused goes first), so a long-running worker's disk does not fill with every
 * project it ever rendered. Fills and removals of one prefix run one after the other.
 */
export class TreeCache {
  private readonly users = new Map<string, number>();
  /** Released trees, in release order. */
  private readonly idle = new Set<string>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    readonly root: string,
    private readonly maxIdle: number,
  ) {}

  /**
   * The folder of `prefix`, filled by `fill(folder)` unless it is there already, and held until {@link release}.
   * `fill` returns false when there is no such tree: the folder then does not exist.
   */
  async acquire(prefix: string, fill: (folder: string) => Promise<boolean>): Promise<string> {
    const target = inside(this.root, prefix);
    this.users.set(prefix, (this.users.get(prefix) ?? 0) + 1);
    this.idle.delete(prefix);
    try {
      await this.queued(prefix, async () => {
        if (await isDirectory(target)) return;
        const staging = join(this.root, '.tmp', randomBytes(12).toString('hex'));
        try {
          await mkdir(staging, { recursive: true });
          if (!(await fill(staging))) return;
          await mkdir(dirname(target), { recursive: true });
          await rename(staging, target);
        } finally {
          await rm(staging, { recursive: true, force: true });
        }
      });
    } catch (error) {
      this.release(prefix);
      throw error;
    }
    return target;
  }

  /** One user is done with `prefix`; beyond `maxIdle` unused trees, the longest unused is removed. */
  release(prefix: string): void {
    const users = this.users.get(prefix);
    if (users === undefined) return;
    if (users > 1) {
      this.users.set(prefix, users - 1);
      return;
    }
    this.users.delete(prefix);
    this.idle.add(prefix);
    for (const oldest of this.idle) {
      if (this.idle.size <= this.maxIdle) break;
      void this.remove(oldest).catch(() => {});
    }
  }

  /** Removes the copy of `prefix` (and of trees under it) now: the stored tree was deleted. */
  remove(prefix: string): Promise<void> {
    this.idle.delete(prefix);
    return this.queued(prefix, () => rm(inside(this.root, prefix), { recursive: true, force: true }));
  }

  /** Removes every copy (at start: a previous run's trees may have been deleted since). */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  private queued(prefix: string, task: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(prefix) ?? Promise.resolve()).catch(() => {}).then(task);
    this.queues.set(prefix, next);
    const forget = () => {
      if (this.queues.get(prefix) === next) this.queues.delete(prefix);
    };
    next.then(forget, forget);
    return next;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/**
 * This process's own cache folder under `parent` (`<host>-<pid>`): processes sharing a data folder (several
 * `fx service worker`s on one machine) must not evict each other's trees in use, nor race to fill the same one.
 * Folders left by this host's processes that are gone are removed first; other hosts' are theirs to clear.
 */
export async function processCacheDir(parent: string): Promise<string> {
  const host = hostname();
  for (const entry of await readdir(parent).catch(() => [])) {
    const owner = /^(.+)-(\d+)$/.exec(entry);
    if (owner?.[1] === host && !isRunning(Number(owner[2])))
      await rm(join(parent, entry), { recursive: true, force: true });
  }
  return join(parent, `${host}-${process.pid}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
