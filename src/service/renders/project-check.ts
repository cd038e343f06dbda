import '../../runtime/dom-parser.node.js';
import type { Issue } from '../../runtime/issues.js';
import { extractCompositionMetadata, type CompositionMetadata } from '../../runtime/metadata.js';
import { lengthProblem } from '../../runtime/render-limits.js';
import { validateVariables } from '../../runtime/values.js';
import type { Limits } from '../config.js';
import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';

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
 * every issue listed); warnings are kept, and refuse it too when `strict`.
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
  const refused = strict ? [...errors, ...warnings] : errors;
  if (refused.length > 0) {
    const first = refused[0]!;
    throw new ServiceError(
      ErrorCode.renderProjectInvalid,
      `the composition ${JSON.stringify(composition)} cannot render with these variables: ${first.message}${refused.length > 1 ? ` (and ${refused.length - 1} more issue(s))` : ''}`,
      {
        param: declarationIssues.includes(first) ? 'composition' : paramOf(first) || 'variables',
        issues: strict ? [...errors, ...warnings] : errors,
      },
    );
  }
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
