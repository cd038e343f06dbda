import { mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A folder of its own for one run of a job, `work/<render id>/<name>-XXXXXX`. A worker whose lease expired may still
 * be running a job beside the job's new holder on the same `dataDir`; sharing a fixed folder, each removed the
 * other's files at its start and end. Leftovers of killed workers go with their render's folder
 * (`removeFinishedWork`, service.ts).
 */
/** Races with other runs' removals are brief; a folder that keeps vanishing is a fault to report. */
const MAX_ATTEMPTS = 20;

export async function makeWorkDir(dataDir: string, renderId: string, name: string): Promise<string> {
  const renderDir = join(dataDir, 'work', renderId);
  for (let attempt = 1; ; attempt++) {
    try {
      await mkdir(renderDir, { recursive: true });
      return await mkdtemp(join(renderDir, `${name}-`));
    } catch (error) {
      // Another run of the render removed the folder it had emptied (`removeWorkDir`) in between: before the
      // temporary folder was made, or even inside the recursive mkdir, which then answers ENOENT too.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === MAX_ATTEMPTS) throw error;
    }
  }
}

/** Removes a run's folder, if it was made, and its render's folder once no other run has one there. */
export async function removeWorkDir(workDir: string | undefined): Promise<void> {
  if (workDir === undefined) return;
  await rm(workDir, { recursive: true, force: true });
  await rmdir(dirname(workDir)).catch(() => {});
}
