import { lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folder (in the temp dir) holding every render browser's profile, each named `<owner pid>-<random>`. */
export const PROFILES_FOLDER = 'fx-render-profiles';

const profilesRoot = () => join(tmpdir(), PROFILES_FOLDER);

/**
 * A fresh, empty browser profile folder owned by this process. Closing a browser removes its profile; a Node
 * process killed outright cannot, so its folders are left for `removeStaleProfiles` to find by their pid. When the
 * shared folder is not ours (another user made it, or it is a link), the profile goes straight into the temp dir.
 */
export async function createProfileDir(): Promise<string> {
  const root = profilesRoot();
  await mkdir(root, { recursive: true, mode: 0o700 });
  const info = await lstat(root);
  if (!info.isDirectory() || (process.getuid !== undefined && info.uid !== process.getuid())) {
    return mkdtemp(join(tmpdir(), 'fx-render-browser-'));
  }
  return mkdtemp(join(root, `${process.pid}-`));
}

/** Removes the profile folders of processes that no longer run; returns their names. Never throws. */
export async function removeStaleProfiles(): Promise<string[]> {
  const names = await readdir(profilesRoot()).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const owner = /^(\d+)-/.exec(name)?.[1];
    if (owner === undefined || isRunning(Number(owner))) continue;
    await rm(join(profilesRoot(), name), { recursive: true, force: true, maxRetries: 2 }).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
