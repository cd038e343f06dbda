import * as z from 'zod/mini';
import { VariableType, COLOR_PATTERN } from './constants.js';
import { DeclarationIssueCode as Code, issue, describe, type Issue, type IssuePath } from './issues.js';

// Zod compiles validators with `new Function` unless told not to; a strict CSP page would refuse that.
z.config({ jitless: true });

const text = z.string();
const finite = z.number();
const common = { id: text.check(z.minLength(1)), label: text };

const enumOption = z.looseObject({ value: text, label: text });

/** One zod schema per variable type. Unknown extra fields (`description`, `role`, …) are kept. */
export const declarationSchemas = {
  string: z.looseObject({
    ...common,
    type: z.literal('string'),
    default: text,
    placeholder: z.optional(text),
    maxLength: z.optional(z.int().check(z.minimum(0))),
  }),
  number: z.looseObject({
    ...common,
    type: z.literal('number'),
    default: finite,
    min: z.optional(finite),
    max: z.optional(finite),
    step: z.optional(finite.check(z.positive())),
    unit: z.optional(text),
  }),
  color: z.looseObject({ ...common, type: z.literal('color'), default: text.check(z.regex(COLOR_PATTERN)) }),
  boolean: z.looseObject({ ...common, type: z.literal('boolean'), default: z.boolean() }),
  enum: z.looseObject({
    ...common,
    type: z.literal('enum'),
    default: text,
    options: z.array(enumOption).check(z.minLength(1)),
  }),
  font: z.looseObject({ ...common, type: z.literal('font'), default: text }),
  image: z.looseObject({ ...common, type: z.literal('image'), default: text }),
} as const;

export type StringDeclaration = z.infer<typeof declarationSchemas.string>;
export type NumberDeclaration = z.infer<typeof declarationSchemas.number>;
export type ColorDeclaration = z.infer<typeof declarationSchemas.color>;
export type BooleanDeclaration = z.infer<typeof declarationSchemas.boolean>;
export type EnumDeclaration = z.infer<typeof declarationSchemas.enum>;
export type FontDeclaration = z.infer<typeof declarationSchemas.font>;
export type ImageDeclaration = z.infer<typeof declarationSchemas.image>;
export type VariableDeclaration =
  | StringDeclaration
  | NumberDeclaration
  | ColorDeclaration
  | BooleanDeclaration
  | EnumDeclaration
  | FontDeclaration
  | ImageDeclaration;

export interface ParsedDeclarations {
  /** Declarations that passed every check (warnings allowed), in source order. */
  readonly declarations: VariableDeclaration[];
  readonly issues: Issue[];
}

const REQUIRED_FIELDS = ['id', 'type', 'label', 'default'] as const;
const TYPES = Object.keys(declarationSchemas).join(', ');

/**
 * Parses the `data-composition-variables` JSON (or an already-parsed array) into typed declarations.
 * Never throws: every problem becomes an issue with a stable `code`, and a declaration with an error is left out.
 *
 * @example
 * const { declarations, issues } = parseVariableDeclarations(root.getAttribute('data-composition-variables'));
 */
export function parseVariableDeclarations(input: string | null | undefined | unknown, path: IssuePath = []): ParsedDeclarations {
  const issues: Issue[] = [];
  let list: unknown = input;
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    return { declarations: [], issues };
  }
  if (typeof input === 'string') {
    try {
      list = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      issues.push(issue(Code.jsonInvalid, path, `variable declarations are not valid JSON: ${reason}`));
      return { declarations: [], issues };
    }
  }
  if (!Array.isArray(list)) {
    issues.push(issue(Code.notArray, path, `variable declarations must be a JSON array, got ${describe(list)}`));
    return { declarations: [], issues };
  }

  const declarations: VariableDeclaration[] = [];
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    const at = [...path, index];
    const found = parseOne(entry, at, issues);
    if (!found) return;
    if (seen.has(found.id)) {
      issues.push(issue(Code.duplicateId, [...at, 'id'], `variable id "${found.id}" is declared more than once`));
      return;
    }
    seen.add(found.id);
    declarations.push(found);
  });
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
  if (typeof type !== 'string' || !Object.hasOwn(declarationSchemas, type)) {
    issues.push(issue(Code.typeUnknown, [...at, 'type'], `declaration ${name} has "type" ${describe(type)}; expected one of ${TYPES}`));
    return undefined;
  }
  if (type === VariableType.enum && record.options === undefined) {
    issues.push(issue(Code.enumOptionsMissing, [...at, 'options'], `enum declaration ${name} needs "options": [{ "value", "label" }]`));
    return undefined;
  }
  if (missing.length > 0) return undefined;

  const result = declarationSchemas[type as VariableType].safeParse(record);
  if (!result.success) {
    for (const problem of result.error.issues) {
      const field = problem.path[0];
      const fieldPath = [...at, ...(problem.path as (string | number)[])];
      if (field === 'default') {
        issues.push(issue(Code.defaultTypeMismatch, fieldPath, `declaration ${name} has a "default" of ${describe(record.default)} that does not match type "${type}"${type === 'color' ? ' (expected #rrggbb)' : ''}`));
      } else {
        issues.push(issue(Code.fieldInvalid, fieldPath, `declaration ${name} has an invalid "${problem.path.join('.')}": ${problem.message}`));
      }
    }
    return undefined;
  }
  const declaration = result.data as VariableDeclaration;
  return checkConsistency(declaration, at, issues) ? declaration : undefined;
}

/** Cross-field rules zod's per-field schemas do not express. Returns false when the declaration is unusable. */
function checkConsistency(declaration: VariableDeclaration, at: IssuePath, issues: Issue[]): boolean {
  const name = `"${declaration.id}"`;
  switch (declaration.type) {
    case 'enum': {
      if (!declaration.options.some((option) => option.value === declaration.default)) {
        const values = declaration.options.map((option) => JSON.stringify(option.value)).join(', ');
        issues.push(issue(Code.enumDefaultNotInOptions, [...at, 'default'], `enum declaration ${name} has default ${describe(declaration.default)}, which is not one of its options (${values})`));
        return false;
      }
      return true;
    }
    case 'number': {
      const { min, max } = declaration;
      if (min !== undefined && max !== undefined && min > max) {
        issues.push(issue(Code.fieldInvalid, [...at, 'min'], `number declaration ${name} has "min" ${min} greater than "max" ${max}`));
        return false;
      }
      if ((min !== undefined && declaration.default < min) || (max !== undefined && declaration.default > max)) {
        issues.push(issue(Code.defaultOutOfRange, [...at, 'default'], `number declaration ${name} has default ${declaration.default} outside [${min ?? '-∞'}, ${max ?? '∞'}]`, 'warning'));
      }
      return true;
    }
    case 'string': {
      if (declaration.maxLength !== undefined && declaration.default.length > declaration.maxLength) {
        issues.push(issue(Code.defaultTooLong, [...at, 'default'], `string declaration ${name} has a default of ${declaration.default.length} characters, more than "maxLength" ${declaration.maxLength}`, 'warning'));
      }
      return true;
    }
    default:
      return true;
  }
}
