/**
 * What a project zip leaves out: a fixed set (version control, dependencies, build output, hidden files, OS litter,
 * the CLI's own output folders) plus the project's `.fxignore`, read from the project's root.
 *
 * `.fxignore` takes a subset of `.gitignore`: one pattern a line; blank lines and lines starting with `#` are
 * skipped (`\#` and `\!` start a pattern with those characters); trailing spaces are dropped; `*` matches within a
 * segment, `?` one character, `**` any number of segments; a pattern ending in `/` matches folders only; a pattern
 * starting with `/` or holding a `/` in its middle is anchored to the root, others match at any depth; `!` re-includes
 * what an earlier pattern left out (the last matching line wins — unlike git, also inside a left-out folder). Not
 * supported: character classes (`[abc]`, taken literally), `.fxignore` files in subfolders.
 */

/** The project's ignore file, at its root. */
export const IGNORE_FILE = '.fxignore';

/** Folder or file names left out at any depth (besides every name starting with a dot). */
const IGNORED_NAMES: ReadonlySet<string> = new Set(['node_modules', 'dist', 'Thumbs.db']);
/** Root folders the CLI writes into. */
const IGNORED_ROOT_FOLDERS: ReadonlySet<string> = new Set(['renders', 'snapshots']);

interface Rule {
  readonly pattern: RegExp;
  readonly negate: boolean;
  readonly folderOnly: boolean;
}

export interface IgnoreRules {
  /** True when the file at `path` (`/`-separated, relative to the root) is left out. */
  ignores(path: string): boolean;
  /** True when nothing under the folder at `path` can be kept: a directory walk need not open it. */
  prunes(path: string): boolean;
}

/** The fixed set alone (`fxignore` undefined), or with the rules of an `.fxignore` text. */
export function ignoreRules(fxignore?: string): IgnoreRules {
  const rules = fxignore === undefined ? [] : parseIgnoreFile(fxignore);
  const negates = rules.some((rule) => rule.negate);
  return {
    ignores: (path) => fixedIgnores(path) || ruleIgnores(rules, path),
    prunes: (path) => fixedIgnoresFolder(path) || (!negates && ruleIgnores(rules, `${path}/`)),
  };
}

function fixedIgnoresFolder(path: string): boolean {
  const segments = path.split('/');
  return (segments.length === 1 && IGNORED_ROOT_FOLDERS.has(segments[0]!)) || segments.some(fixedIgnoresName);
}

const fixedIgnoresName = (segment: string) => segment.startsWith('.') || IGNORED_NAMES.has(segment);

function fixedIgnores(path: string): boolean {
  const segments = path.split('/');
  return segments.some(fixedIgnoresName) || (segments.length > 1 && IGNORED_ROOT_FOLDERS.has(segments[0]!));
}

/**
 * Whether the last rule matching `path` or one of its folders leaves it out. A `path` ending in `/` is a folder.
 */
function ruleIgnores(rules: readonly Rule[], path: string): boolean {
  const isFolder = path.endsWith('/');
  const segments = (isFolder ? path.slice(0, -1) : path).split('/');
  // The path's folders, then the path itself.
  const candidates = segments.map((_, index) => ({
    path: segments.slice(0, index + 1).join('/'),
    isFolder: isFolder || index < segments.length - 1,
  }));
  let ignored = false;
  for (const rule of rules) {
    if (candidates.some((candidate) => (candidate.isFolder || !rule.folderOnly) && rule.pattern.test(candidate.path)))
      ignored = !rule.negate;
  }
  return ignored;
}

/** The rules of an `.fxignore` text, in order. */
export function parseIgnoreFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    if (line.startsWith('\\#') || line.startsWith('\\!')) line = line.slice(1);
    const folderOnly = line.endsWith('/');
    if (folderOnly) line = line.replace(/\/+$/, '');
    const anchored = line.startsWith('/') || line.includes('/');
    line = line.replace(/^\/+/, '');
    if (line === '') continue;
    rules.push({ pattern: new RegExp(`${anchored ? '^' : '(?:^|/)'}${globToRegExp(line)}$`, 'u'), negate, folderOnly });
  }
  return rules;
}

function globToRegExp(glob: string): string {
  let out = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '*' && glob[index + 1] === '*') {
      const slashAfter = glob[index + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      index += slashAfter ? 2 : 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else out += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}
