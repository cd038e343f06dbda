/**
 * The service's submit check on missing files (src/runtime/compile/missing-files.ts), here before anything is zipped or
 * sent: the entry, its sub-compositions and the stylesheets they link must name only files the upload holds.
 */
import { DEFAULT_LIMITS as COMPILE_LIMITS } from '../runtime/compile/loader.js';
import { missingFilesInProject } from '../runtime/compile/missing-files-project.js';
import { ErrorCode } from '../wire/constants.js';
import { FxApiError } from './errors.js';
import { sizeOf, type ProjectFile } from './zip/sources.js';

/** Text files the rule reads (sub-compositions, stylesheets); others are only looked up. */
const TEXT_FILE = /\.(html?|css)$/i;

/**
 * Refuses with `project_file_missing` (each place in `issues`, 50 then a count) when the entry `composition` of
 * `files` names project files `files` do not hold. An entry `files` lack is the zip check's to refuse.
 */
export async function checkMissingFiles(files: readonly ProjectFile[], composition: string): Promise<void> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const entry = byPath.get(composition);
  if (!entry) return;
  const read = async (path: string) => {
    const file = byPath.get(path);
    // Larger than the compile reads: it is refused with its own code when the render runs.
    if (!file || !TEXT_FILE.test(path) || sizeOf(file.content) > COMPILE_LIMITS.fileBytes) return undefined;
    return textOf(file.content);
  };
  const html = await textOf(entry.content);
  const issues = await missingFilesInProject(
    html,
    composition,
    { has: (path) => byPath.has(path), read },
    { depth: COMPILE_LIMITS.depth, maxFiles: COMPILE_LIMITS.files },
  );
  if (issues.length === 0) return;
  throw new FxApiError(
    ErrorCode.projectFileMissing,
    `the composition ${JSON.stringify(composition)} names files the project does not have, nothing sent: ${issues[0]!.message}${issues.length > 1 ? ` (and ${issues.length - 1} more issue(s))` : ''}; add them, or pass "allowMissingFiles: true" to render without them`,
    { param: 'composition', issues },
  );
}

const textOf = async (content: ProjectFile['content']) =>
  content instanceof Blob ? content.text() : new TextDecoder().decode(content);
