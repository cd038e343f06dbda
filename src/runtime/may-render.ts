/**
 * May this render with these values: the one rule `fx render`, `fx cloud render`, `cloudRender`, the batches and
 * the service apply to the issues of a render's values (and of its declarations). Errors refuse the render; warnings
 * refuse it too when `strict` (`--strict-variables`, `strictVariables`, `strict_variables`), and are kept otherwise.
 */
import type { Issue } from './issues.js';

/** The refused issues, in the order found: never empty. */
export type RefusedIssues = readonly [Issue, ...Issue[]];

/**
 * Throws what `refusal` makes of the issues that refuse the render (each caller its own error and words: "nothing
 * rendered", "nothing sent"…), so the refusal names them; returns `issues` when none does (then all warnings, for
 * the caller to report or keep).
 */
export function assertMayRender<Found extends Issue>(
  issues: Found[],
  strict: boolean,
  refusal: (refused: RefusedIssues) => Error,
): Found[] {
  const [first, ...rest] = issues.filter((found) => strict || found.severity === 'error');
  if (first) throw refusal([first, ...rest]);
  return issues;
}
