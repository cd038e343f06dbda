/** The log files of child-service.ts processes, one per process under `<dataDir>/logs`, for a failing test to quote. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const childLogFile = (dataDir: string, role: string, pid: number) => join(dataDir, 'logs', `${role}-${pid}.log`);

/** Every line of every child's log that mentions `text` (a render id), in file order; at most `max`. */
export async function logLinesAbout(dataDir: string, text: string, max = 40): Promise<string[]> {
  const dir = join(dataDir, 'logs');
  const files = await readdir(dir).catch(() => [] as string[]);
  const lines: string[] = [];
  for (const file of files.sort())
    for (const line of (await readFile(join(dir, file), 'utf8')).split('\n'))
      if (line.includes(text)) lines.push(line.length > 2_000 ? `${line.slice(0, 2_000)}…` : line);
  return lines.slice(0, max);
}
