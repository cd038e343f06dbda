import { collisionProblem, relativePathProblem, withoutTrailingSlash, type ZipProblem } from '../../wire/zip-limits.js';
import { ServiceError } from '../errors.js';

const refuse = (problem: ZipProblem) => new ServiceError(problem.code, problem.message);

/**
 * Refuses a path that could leave the extraction folder or mean different files on different systems (the rules
 * live in src/wire/zip-limits.ts, shared with the client). Returns the path without its trailing `/` (folder
 * entries). `what` names the path in messages.
 */
export function checkRelativePath(path: string, what: string): string {
  const problem = relativePathProblem(path, what);
  if (problem) throw refuse(problem);
  return withoutTrailingSlash(path);
}

/**
 * Refuses names that would overwrite each other on extraction: exact duplicates, a name used both as a file and
 * as a folder, and names equal after case folding and Unicode normalisation (macOS, Windows).
 */
export function checkNoCollisions(entries: readonly { path: string; isDirectory: boolean }[]): void {
  const problem = collisionProblem(entries);
  if (problem) throw refuse(problem);
}
