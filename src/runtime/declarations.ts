import { Attr, type VariableType } from './constants.js';
import { DeclarationIssueCode as Code, ValueIssueCode, issue, describe, type Issue, type IssuePath } from './issues.js';
import { checkValue, color, finite, flag, text, type Rule } from './values.js';
import { declarationEntries, isDeclarationMap } from './declaration-map.js';
import { jsonFailure, positionAt } from './json-position.js';
import type { VariableDeclaration } from './declaration-types.js';

export type {
  BooleanDeclaration,
  ColorDeclaration,
  EnumDeclaration,
  EnumOption,
  FontDeclaration,
  ImageDeclaration,
  NumberDeclaration,
  StringDeclaration,
  VariableDeclaration,
} from './declaration-types.js';

export interface ParsedDeclarations {
  /** Declarations that passed every check (warnings allowed), in source order. */
  readonly declarations: VariableDeclaration[];
  readonly issues: Issue[];
}

const positive: Rule = [
  (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
  'a positive number',
];
const count: Rule = [(value) => Number.isInteger(value) && (value as number) >= 0, 'a whole number ≥ 0'];
const options: Rule = [
  // Array.from: `every` skips holes, and a hole is no option.
  (value) =>
    Array.isArray(value) &&
    value.length > 0 &&
    Array.from(value).every(
      (option) =>
        typeof option === 'object' &&
        option !== null &&
        typeof option.value === 'string' &&
        typeof option.label === 'string',
    ),
  'a non-empty array of { "value": string, "label": string }',
];

/**
 * The schema of each variable type: the rule for `default` and for each optional field. One table, read by the
 * parser, the docs and the tests; small enough for the in-frame runtime.
 */
export const DECLARATION_SCHEMA: Readonly<
  Record<VariableType, { readonly default: Rule; readonly fields: Readonly<Record<string, Rule>> }>
> = {
  string: { default: text, fields: { placeholder: text, maxLength: count } },
  number: { default: finite, fields: { min: finite, max: finite, step: positive, unit: text } },
  color: { default: color, fields: {} },
  boolean: { default: flag, fields: {} },
  enum: { default: text, fields: { options } },
  font: { default: text, fields: {} },
  image: { default: text, fields: {} },
};

const REQUIRED_FIELDS = ['id', 'type', 'label', 'default'] as const;
const TYPES = Object.keys(DECLARATION_SCHEMA).join(', ');

/**
 * Parses the `data-composition-variables` JSON (or an already-parsed array) into typed declarations. The object
 * form `{ "<id>": { type, default, label? … } }` is read as the array form (see declaration-map.ts).
 * Never throws: every problem becomes an issue with a stable `code`, and a declaration with an error is left out.
 *
 * @example
 * const { declarations, issues } = parseVariableDeclarations(root.getAttribute('data-composition-variables'));
 */
export function parseVariableDeclarations(input: unknown, path: IssuePath = []): ParsedDeclarations {
  const issues: Issue[] = [];
  let list: unknown = input;
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    return { declarations: [], issues };
  }
  if (typeof input === 'string') {
    const failure = jsonFailure(input);
    if (failure) {
      const at = failure.offset === undefined ? undefined : positionAt(input, failure.offset);
      const where = at ? ` at line ${at.line}, column ${at.column} of ${Attr.compositionVariables}` : '';
      issues.push(issue(Code.jsonInvalid, path, `variable declarations are not valid JSON${where}: ${failure.reason}`));
      return { declarations: [], issues };
    }
    list = JSON.parse(input);
  }
  if (!Array.isArray(list) && !isDeclarationMap(list)) {
    issues.push(
      issue(
        Code.notArray,
        path,
        `variable declarations must be a JSON array, or an object of declarations by id, got ${describe(list)}`,
      ),
    );
    return { declarations: [], issues };
  }

  const declarations: VariableDeclaration[] = [];
  const seen = new Set<string>();
  for (const [key, entry] of declarationEntries(list)) {
    const at = [...path, key];
    const found = parseOne(entry, at, issues);
    if (!found) continue;
    if (seen.has(found.id)) {
      issues.push(issue(Code.duplicateId, [...at, 'id'], `variable id "${found.id}" is declared more than once`));
      continue;
    }
    seen.add(found.id);
    declarations.push(found);
  }
  return { declarations, issues };
}

function parseOne(entry: unknown, at: IssuePath, issues: Issue[]): VariableDeclaration | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    issues.push(issue(Code.notObject, at, `each declaration must be an object, got ${describe(entry)}`));
    return undefined;
  }
  const record = entry as Record<string, unknown>;
  const name = typeof record.id === 'string' && record.id ? `"${record.id}"` : `#${String(at.at(-1))}`;
  const missing = REQUIRED_FIELDS.filter((field) => record[field] === undefined);
  for (const field of missing) {
    issues.push(issue(Code.fieldMissing, [...at, field], `declaration ${name} is missing required field "${field}"`));
  }
  if (missing.includes('type')) return undefined;

  const type = record.type;
  if (typeof type !== 'string' || !Object.hasOwn(DECLARATION_SCHEMA, type)) {
    issues.push(
      issue(
        Code.typeUnknown,
        [...at, 'type'],
        `declaration ${name} has "type" ${describe(type)}; expected one of ${TYPES}`,
      ),
    );
    return undefined;
  }
  if (type === 'enum' && record.options === undefined) {
    issues.push(
      issue(
        Code.enumOptionsMissing,
        [...at, 'options'],
        `enum declaration ${name} needs "options": [{ "value", "label" }]`,
      ),
    );
    return undefined;
  }
  if (missing.length > 0) return undefined;

  const schema = DECLARATION_SCHEMA[type as VariableType];
  const before = issues.length;
  const invalid = (field: string, expected: string) =>
    issues.push(
      issue(
        Code.fieldInvalid,
        [...at, field],
        `declaration ${name} has an invalid "${field}": expected ${expected}, got ${describe(record[field])}`,
      ),
    );
  if (typeof record.id !== 'string' || record.id === '') invalid('id', 'a non-empty string');
  if (typeof record.label !== 'string') invalid('label', 'a string');
  for (const [field, [check, expected]] of Object.entries(schema.fields)) {
    if (record[field] !== undefined && !check(record[field])) invalid(field, expected);
  }
  if (!schema.default[0](record.default)) {
    issues.push(
      issue(
        Code.defaultTypeMismatch,
        [...at, 'default'],
        `declaration ${name} has a "default" of ${describe(record.default)} that does not match type "${type}" (expected ${schema.default[1]})`,
      ),
    );
  }
  if (issues.length > before) return undefined;
  const declaration = record as VariableDeclaration;
  return checkConsistency(declaration, at, issues) ? declaration : undefined;
}

/** The code for a declared default that its own declaration refuses, by the code a refused value gets. */
const DEFAULT_CODES: Readonly<Record<string, Code>> = {
  [ValueIssueCode.enumOutOfRange]: Code.enumDefaultNotInOptions,
  [ValueIssueCode.outOfRange]: Code.defaultOutOfRange,
  [ValueIssueCode.tooLong]: Code.defaultTooLong,
};

/** Cross-field rules: `min` ≤ `max`, and a default its own declaration accepts. Returns false when unusable. */
function checkConsistency(declaration: VariableDeclaration, at: IssuePath, issues: Issue[]): boolean {
  if (
    declaration.type === 'number' &&
    declaration.min !== undefined &&
    declaration.max !== undefined &&
    declaration.min > declaration.max
  ) {
    issues.push(
      issue(
        Code.fieldInvalid,
        [...at, 'min'],
        `number declaration "${declaration.id}" has "min" ${declaration.min} greater than "max" ${declaration.max}`,
      ),
    );
    return false;
  }
  const found = checkValue(
    declaration,
    declaration.default,
    [...at, 'default'],
    `the default of declaration "${declaration.id}"`,
  );
  if (!found) return true;
  issues.push({ ...found, code: DEFAULT_CODES[found.code] ?? Code.defaultTypeMismatch });
  return found.severity === 'warning';
}
