import '../../runtime/dom-parser.node.js';
import { DEFAULT_LIMITS as COMPILE_LIMITS } from '../../runtime/compile/loader.js';
import type { Issue } from '../../runtime/issues.js';
import { missingFilesInProject } from '../../runtime/compile/missing-files-project.js';
import { extractCompositionMetadata, type CompositionMetadata } from '../../runtime/metadata.js';
import { lengthProblem } from '../../runtime/render-limits.js';
import { assertMayRender } from '../../runtime/may-render.js';
import { validateVariables } from '../../runtime/values.js';
import type { Limits } from '../config.js';
import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { relativePathProblem } from '../../wire/zip-limits.js';

export interface ProjectCheck {
  readonly metadata: CompositionMetadata;
  /** Accepted warnings, kept on the render record. */
  readonly warnings: Issue[];
}

/** `variables.title` for an issue at `['variables', 'title']`. */
const paramOf = (found: Issue) => found.path.join('.');

/**
 * Validates the submitted variables against the composition's own declarations, with the same runtime the
 * preview and the CLI use. Broken declarations and value errors refuse the render (`render_project_invalid`,
 * every issue listed); warnings are kept, and refuse it too when `strict` (`assertMayRender`, the CLI's and the
 * client's rule too).
 */
export function checkProject(
  html: string,
  composition: string,
  variables: Record<string, unknown>,
  strict: boolean,
): ProjectCheck {
  const metadata = extractCompositionMetadata(html);
  const declarationIssues = metadata.issues.filter((found) => found.severity === 'error');
  const valueIssues = validateVariables(variables, metadata.variables, { path: ['variables'] });
  const errors = [...declarationIssues, ...valueIssues.filter((found) => found.severity === 'error')];
  const warnings = valueIssues.filter((found) => found.severity === 'warning');
  assertMayRender([...errors, ...warnings], strict, (refused) => {
    const first = refused[0];
    return new ServiceError(
      ErrorCode.renderProjectInvalid,
      `the composition ${JSON.stringify(composition)} cannot render with these variables: ${first.message}${refused.length > 1 ? ` (and ${refused.length - 1} more issue(s))` : ''}`,
      {
        param: declarationIssues.includes(first) ? 'composition' : paramOf(first) || 'variables',
        issues: refused,
      },
    );
  });
  return { metadata, warnings };
}

/**
 * Refuses a composition that would render for too long (`composition_duration_too_long`, the renderer's code):
 * its root `data-duration` above `maxDurationSeconds`, or duration × fps above `maxFrames`. A composition without
 * a duration is left to the renderer, which refuses it.
 */
export function checkCompositionLength(
  duration: number | undefined,
  composition: string,
  fps: number,
  limits: Pick<Limits, 'maxDurationSeconds' | 'maxFrames'>,
): void {
  if (duration === undefined) return;
  const problem = lengthProblem(JSON.stringify(composition), duration, fps, limits);
  if (problem) throw new ServiceError(ErrorCode.compositionTooLong, problem, { param: 'composition' });
}

/**
 * Refuses an entry that names files the asset under `prefix` lacks (`project_file_missing`, each place in
 * `issues`, by the rule lint and the compile use: its sub-compositions and linked stylesheets too), as the render
 * would fail later. Only the files it names are looked up in storage, each once and at most as many as the compile
 * reads.
 */
export async function checkProjectFiles(
  storage: BlobStorage,
  prefix: string,
  html: string,
  composition: string,
): Promise<void> {
  // A path no zip entry may have (an empty segment, a control character) is not in the asset: never asked.
  const open = (path: string) => (relativePathProblem(path, 'file') ? undefined : storage.open(`${prefix}/${path}`));
  const issues = await missingFilesInProject(
    html,
    composition,
    {
      has: async (path) => (await open(path)) !== undefined,
      read: async (path) => {
        const file = await open(path);
        // Larger than the compile reads: it refuses that file with its own code when it renders.
        if (!file || file.size > COMPILE_LIMITS.fileBytes) return undefined;
        const bytes = await storage.read(`${prefix}/${path}`);
        return bytes && new TextDecoder().decode(bytes);
      },
    },
    { depth: COMPILE_LIMITS.depth, maxFiles: COMPILE_LIMITS.files },
  );
  if (issues.length === 0) return;
  throw new ServiceError(
    ErrorCode.projectFileMissing,
    `the composition ${JSON.stringify(composition)} names files the asset does not have: ${issues[0]!.message}${issues.length > 1 ? ` (and ${issues.length - 1} more issue(s))` : ''}; add them to the project, or send "allow_missing_files": true to render without them`,
    { param: 'composition', issues },
  );
}
