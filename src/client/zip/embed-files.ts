/**
 * The files of an embedded composition as a project: what its compile read and what it names, each under a path
 * relative to the entry's folder, the entry itself as `index.html` (the service's default entry). Fetched under the
 * compiler's rules (compile/reads.ts): only URLs the composition may read (the entry's folder and
 * `allowCompositionReadsUnder`), the entry with the page's cookies, everything else without. A file outside the
 * entry's folder has no place in the zip: it stays a URL the renderer loads itself (`external`).
 */
import { ReadScope } from '../../runtime/compile/reads.js';
import { decodePath, parseUrl } from '../../runtime/data.js';
import { ProjectSourceErrorCode, ZipError } from './errors.js';
import type { ProjectEntry } from './sources.js';

/** The service's default entry composition, and so the entry's name in the zip. */
export const ENTRY_PATH = 'index.html';

/** One file of an embedded composition's project: its path in the zip and the URL it is fetched from. */
export interface ProjectDependency {
  readonly path: string;
  readonly url: string;
}

/** What an embed knows of its composition after a load. */
export interface EmbedProject {
  /** The entry's URL (for markup entries, the URL it stands at: the page's). */
  readonly entryUrl: string;
  /** The entry's markup when it was given as markup (`srcdoc`), else undefined (it is fetched). */
  readonly entryHtml: string | undefined;
  /** Absolute URLs the composition depends on (the compile's `dependencies` and the current variables' files). */
  readonly urls: readonly string[];
  readonly allowCompositionReadsUnder: readonly string[];
}

export interface ProjectFilesOptions {
  /**
   * Files the compiler cannot see (URLs built by scripts): a URL (relative to the entry, under the same rules as
   * the rest) or a `{ path, data }` entry, added as it is.
   */
  readonly extraFiles?: readonly (string | ProjectEntry)[];
  /** Defaults to `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

/** The compiler's scope: `allowCompositionReadsUnder` resolves against the page, as the element's compile does. */
const readScope = (project: EmbedProject) =>
  new ReadScope(project.entryUrl, project.allowCompositionReadsUnder, globalThis.location?.href ?? project.entryUrl);

const bare = (url: URL) => `${url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin}${url.pathname}`;

/**
 * The project's files with their paths (the entry first, then by path) and the URLs left out: outside the entry's
 * folder, or outside what the composition may read.
 */
export function projectDependencies(
  project: EmbedProject,
  extraUrls: readonly string[] = [],
): { files: ProjectDependency[]; external: string[] } {
  const entry = new URL(project.entryUrl);
  const folder = new URL('./', entry);
  const scope = readScope(project);
  const byPath = new Map<string, ProjectDependency>([[ENTRY_PATH, { path: ENTRY_PATH, url: entry.href }]]);
  const external = new Set<string>();
  for (const raw of [...project.urls, ...extraUrls]) {
    const url = parseUrl(raw, entry.href);
    if (!url || bare(url) === bare(entry)) continue;
    const inFolder =
      url.protocol === folder.protocol &&
      url.host === folder.host &&
      url.pathname.startsWith(folder.pathname) &&
      url.pathname !== folder.pathname;
    if (!inFolder || !scope.allows(url)) {
      external.add(url.href);
      continue;
    }
    const path = decodePath(url.pathname.slice(folder.pathname.length));
    const taken = byPath.get(path);
    if (taken && path === ENTRY_PATH) {
      throw new ZipError(
        ProjectSourceErrorCode.entryNameTaken,
        `the entry goes into the zip as "${ENTRY_PATH}", but the composition also uses ${JSON.stringify(url.href)} at that path`,
        { path },
      );
    }
    if (!taken) byPath.set(path, { path, url: url.href });
  }
  const [first, ...rest] = byPath.values();
  return { files: [first!, ...rest.sort((a, b) => (a.path < b.path ? -1 : 1))], external: [...external].sort() };
}

/**
 * Fetches the project's files, ready for `zipProject(files, { ignore: false })`: every file the composition uses is
 * zipped, hidden or not. A file that cannot be fetched is a {@link ZipError} (`project_file_unavailable`) naming it.
 */
export async function fetchProjectFiles(
  project: EmbedProject,
  options: ProjectFilesOptions = {},
): Promise<ProjectEntry[]> {
  const extras = options.extraFiles ?? [];
  const { files } = projectDependencies(
    project,
    extras.filter((extra): extra is string => typeof extra === 'string'),
  );
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const scope = readScope(project);
  const fetched = await Promise.all(
    files.map(async ({ path, url }): Promise<ProjectEntry> => {
      if (path === ENTRY_PATH && project.entryHtml !== undefined) return { path, data: project.entryHtml };
      const unavailable = (reason: string, cause?: unknown) =>
        new ZipError(
          ProjectSourceErrorCode.fileUnavailable,
          `${JSON.stringify(url)} (${path}) ${reason}`,
          cause === undefined ? { path } : { path, cause },
        );
      let response: Response;
      try {
        response = await doFetch(url, {
          credentials: path === ENTRY_PATH ? 'same-origin' : 'omit',
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw unavailable(`could not be fetched: ${(error as Error).message}`, error);
      }
      if (response.redirected && response.url && path !== ENTRY_PATH && !scope.allows(new URL(response.url))) {
        response.body?.cancel().catch(() => undefined);
        throw unavailable(`redirected outside the folders this composition may read`);
      }
      if (!response.ok) {
        response.body?.cancel().catch(() => undefined);
        throw unavailable(`answered HTTP ${response.status}`);
      }
      return { path, data: await response.blob() };
    }),
  );
  // A given entry at a path already taken is left for zipProject to refuse (`zip_entry_duplicate`).
  return [...fetched, ...extras.filter((extra): extra is ProjectEntry => typeof extra !== 'string')];
}
