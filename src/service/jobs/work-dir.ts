import { mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A folder of its own for one run of a job, `work/<render id>/<name>-XXXXXX`. A worker whose lease expired may still
 * be running a job beside the job's new holder on the same `dataDir`; sharing a fixed folder, each removed the
 * other's files at its start and end. Leftovers of killed workers go with their render's folder
 * (`removeFinishedWork`, service.ts).
 */
export async function makeWorkDir(dataDir: string, renderId: string, name: string): Promise<string> {
  const renderDir = join(dataDir, 'work', renderId);
  for (;;) {
    await mkdir(renderDir, { recursive: true });
    try {
      return await mkdtemp(join(renderDir, `${name}-`));
    } catch (error) {
      // Another run of the render removed the folder it had emptied (`removeWorkDir`) in between.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Removes a run's folder, and its render's folder once no other run has one there. */
export async function removeWorkDir(workDir: string): Promise<void> {
  await rm(workDir, { recursive: true, force: true });
  await rmdir(dirname(workDir)).catch(() => {});
}
