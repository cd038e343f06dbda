import { DeclarationIssueCode, type Issue } from '../../runtime/issues.js';

const DECLARATION_CODES = new Set<string>(Object.values(DeclarationIssueCode));

/**
 * The source's declaration errors: each left a declaration out (a list that is not JSON, all of them), so a list
 * written back from what was read would drop it. The panel offers no edit of such a source.
 */
export const unreadDeclarations = (issues: readonly Issue[]): Issue[] =>
  issues.filter((found) => found.severity === 'error' && DECLARATION_CODES.has(found.code));

/** Why the declarations of a source with `unread` errors cannot be edited. */
export const unreadProblem = (unread: readonly Issue[]) =>
  `the source has declarations that could not be read, and a list written back would drop them; fix them in the source first (${unread.map((found) => found.message).join('; ')})`;
