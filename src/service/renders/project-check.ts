import '../../runtime/dom-parser.node.js';
import type { AspectRatio } from '../../render/types.js';
import type { Issue } from '../../runtime/issues.js';
import { extractCompositionMetadata, type CompositionMetadata } from '../../runtime/metadata.js';
import { validateVariables } from '../../runtime/values.js';
import { ErrorCode } from '../constants.js';
import { ServiceError } from '../errors.js';

const RATIOS: readonly [AspectRatio, number][] = [['16:9', 16 / 9], ['9:16', 9 / 16], ['1:1', 1]];

/** The supported ratio nearest (on a log scale) to the composition's size; `16:9` when it declares none. */
export function detectAspectRatio(metadata: Pick<CompositionMetadata, 'width' | 'height'>): AspectRatio {
  if (!metadata.width || !metadata.height) return '16:9';
  const ratio = Math.log(metadata.width / metadata.height);
  return RATIOS.reduce((best, candidate) => (Math.abs(Math.log(candidate[1]) - ratio) < Math.abs(Math.log(best[1]) - ratio) ? candidate : best))[0];
}

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
export function checkProject(html: string, composition: string, variables: Record<string, unknown>, strict: boolean): ProjectCheck {
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
      { param: declarationIssues.includes(first) ? 'composition' : paramOf(first) || 'variables', issues: strict ? [...errors, ...warnings] : errors },
    );
  }
  return { metadata, warnings };
}
