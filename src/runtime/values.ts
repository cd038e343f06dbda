import { undeclaredMessage } from './did-you-mean.js';
import { COLOR_PATTERN, type VariableType } from './constants.js';
import type { VariableDeclaration } from './declaration-types.js';
import { FxError, RuntimeErrorCode } from './errors.js';
import { ValueIssueCode as Code, issue, describe, type Issue, type IssuePath } from './issues.js';
import { isRecord } from './data.js';

/** A font value: a family name, or a name with the URL of its source file. */
export type FontValue = string | { readonly name: string; readonly source?: string };
/** An image value: a URL, or an object carrying one. */
export type ImageValue = string | { readonly url: string };
/** Values by variable id, as supplied by a host, the CLI or the element. */
export type VariableValues = Readonly<Record<string, unknown>>;

export interface ValidateOptions {
  /** Throw an `FxError` with code `variables_invalid` when any issue, warnings included, is found. */
  readonly strict?: boolean;
  /** Prefix for issue paths, e.g. `['data-variable-values']`. */
  readonly path?: IssuePath;
}

/** A rule for a value or a declaration field: a predicate and the words messages use for what it expects. */
export type Rule = readonly [check: (value: unknown) => boolean, expected: string];

export const text: Rule = [(value) => typeof value === 'string', 'a string'];
export const finite: Rule = [(value) => typeof value === 'number' && Number.isFinite(value), 'a finite number'];
export const color: Rule = [(value) => typeof value === 'string' && COLOR_PATTERN.test(value), 'a "#rrggbb" color'];
export const flag: Rule = [(value) => typeof value === 'boolean', 'true or false'];

/** What a value of each type must be (declared defaults of fonts and images are plain strings). */
const VALUE_RULES: Readonly<Record<VariableType, Rule>> = {
  string: text,
  number: finite,
  color,
  boolean: flag,
  enum: text,
  font: [
    (value) =>
      typeof value === 'string' ||
      (isRecord(value) &&
        typeof value.name === 'string' &&
        (value.source === undefined || typeof value.source === 'string')),
    'a family name or { "name", "source" }',
  ],
  image: [
    (value) => typeof value === 'string' || (isRecord(value) && typeof value.url === 'string'),
    'a URL string or { "url" }',
  ],
};

/**
 * A number within its declaration's `min`/`max`: out-of-range numbers are clamped, the same way wherever values are
 * resolved (the preview's frame and the renderer run the same resolver). Other values pass unchanged.
 */
export function withinRange(declaration: VariableDeclaration, value: unknown): unknown {
  if (declaration.type !== 'number' || typeof value !== 'number') return value;
  return Math.min(Math.max(value, declaration.min ?? -Infinity), declaration.max ?? Infinity);
}

/**
 * Checks one value against its declaration. Errors mean the value cannot be used; warnings keep it
 * (`out-of-range`: clamped into the range, see {@link withinRange}; `too-long`: kept whole). `subject` names the
 * value in messages (the parser checks declared defaults with it too).
 */
export function checkValue(
  declaration: VariableDeclaration,
  value: unknown,
  path: IssuePath = [declaration.id],
  subject = `variable "${declaration.id}"`,
): Issue | undefined {
  const [matches, expected] = VALUE_RULES[declaration.type];
  if (!matches(value)) {
    return issue(
      Code.typeMismatch,
      path,
      `${subject} is declared as ${declaration.type} and expects ${expected}, got ${describe(value)}`,
    );
  }
  if (declaration.type === 'enum' && !declaration.options.some((option) => option.value === value)) {
    const allowed = declaration.options.map((option) => JSON.stringify(option.value)).join(', ');
    return issue(Code.enumOutOfRange, path, `${subject} must be one of ${allowed}, got ${describe(value)}`);
  }
  if (declaration.type === 'number') {
    const number = value as number;
    if (
      (declaration.min !== undefined && number < declaration.min) ||
      (declaration.max !== undefined && number > declaration.max)
    ) {
      return issue(
        Code.outOfRange,
        path,
        `${subject} should be within [${declaration.min ?? '-∞'}, ${declaration.max ?? '∞'}], got ${number}; it is clamped to ${withinRange(declaration, number)}`,
        'warning',
      );
    }
  }
  if (
    declaration.type === 'string' &&
    declaration.maxLength !== undefined &&
    (value as string).length > declaration.maxLength
  ) {
    return issue(
      Code.tooLong,
      path,
      `${subject} should be at most ${declaration.maxLength} characters, got ${(value as string).length}`,
      'warning',
    );
  }
  return undefined;
}

/**
 * Validates supplied values against declarations: `undeclared` keys, `type-mismatch`, `enum-out-of-range`,
 * plus `out-of-range` (the value will be clamped) / `too-long` warnings. Returns the issues; with `strict` any issue throws
 * `FxError('variables_invalid')` carrying them.
 *
 * @example
 * validateVariables({ title: 42 }, declarations); // [{ code: 'type-mismatch', path: ['title'], ... }]
 */
export function validateVariables(
  values: unknown,
  declarations: readonly VariableDeclaration[],
  options: ValidateOptions = {},
): Issue[] {
  const path = options.path ?? [];
  const issues: Issue[] = [];
  if (!isRecord(values)) {
    issues.push(issue(Code.valuesInvalid, path, `variable values must be a JSON object, got ${describe(values)}`));
  } else {
    const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
    for (const [id, value] of Object.entries(values)) {
      const declaration = byId.get(id);
      const found = declaration
        ? checkValue(declaration, value, [...path, id])
        : issue(Code.undeclared, [...path, id], undeclaredMessage(id, byId.keys()), 'warning');
      if (found) issues.push(found);
    }
  }
  if (options.strict && issues.length > 0) {
    throw new FxError(
      RuntimeErrorCode.variablesInvalid,
      `${issues.length} variable issue(s): ${issues.map((found) => found.message).join('; ')}`,
      { issues },
    );
  }
  return issues;
}
