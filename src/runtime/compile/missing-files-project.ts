/**
 * The missing-file rule (missing-files.ts) over one entry of a project whose files are asked for one by one and
 * answer later (the files a client is about to upload, the service's storage): what the compile would report
 * for that entry — its own places, its sub-compositions', the stylesheets they link — without reading the
 * project whole. Only files the entry names are looked up, each once, at most `maxFiles` of them.
 */
import type { Issue } from '../issues.js';
import { missingFilesIn } from './missing-files.js';

/** A project asked file by file. */
export interface ProjectLookup {
  /** Whether the project has a file at `path` (from its root, `/`-separated). */
  has(path: string): Promise<boolean> | boolean;
  /** The file's text, or undefined when there is none or it is not to be read (too large for the compile). */
  read(path: string): Promise<string | undefined> | string | undefined;
}

export interface ProjectCheckLimits {
  /** Levels of sub-compositions followed (the compile's `limits.depth`). */
  readonly depth: number;
  /** Most distinct files looked up (the compile's `limits.files`); past it, a file counts as there. */
  readonly maxFiles: number;
  /** Lookups at once. */
  readonly concurrency?: number;
}

/**
 * Each place the entry at `entry` (its text `html`) names a project file `project` lacks, at most 50 and then a
 * count, as {@link missingFilesIn} gives them.
 *
 * @example
 * const issues = await missingFilesInProject(html, 'index.html', { has, read }, { depth: 8, maxFiles: 1000 });
 */
export async function missingFilesInProject(
  html: string,
  entry: string,
  project: ProjectLookup,
  limits: ProjectCheckLimits,
): Promise<Issue[]> {
  const present = new Map<string, boolean>();
  const texts = new Map<string, string | undefined>([[entry, html]]);
  // Each round learns the files the last one named; a chain of sub-compositions and stylesheets ends by depth.
  for (let round = 0; ; round++) {
    const toAsk = new Set<string>();
    const toRead = new Set<string>();
    const issues = missingFilesIn(
      html,
      entry,
      (path) => {
        const known = present.get(path);
        if (known !== undefined) return known;
        if (present.size + toAsk.size < limits.maxFiles) toAsk.add(path);
        // Not known yet: taken as there, so it is read when the entry needs its text.
        return true;
      },
      {
        read: (path) => {
          if (texts.has(path)) return texts.get(path);
          toRead.add(path);
          return undefined;
        },
        subCompositionDepth: limits.depth,
      },
    );
    if ((toAsk.size === 0 && toRead.size === 0) || round > limits.depth + 1) return issues;
    const concurrency = limits.concurrency ?? 8;
    await eachAtMost(concurrency, [...toAsk], async (path) => present.set(path, await project.has(path)));
    await eachAtMost(concurrency, [...toRead], async (path) =>
      texts.set(path, present.get(path) === false ? undefined : await project.read(path)),
    );
  }
}

/** Runs `work` over `items`, at most `limit` at once. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
