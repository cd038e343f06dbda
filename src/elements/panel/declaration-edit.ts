/**
 * Declaration editing as data: a form's draft (strings and a flag) to a declaration, and a new list checked by the
 * runtime's own parser, so the panel refuses exactly what `parseVariableDeclarations` (and lint) would report.
 */
import { VariableType } from '../../runtime/constants.js';
import { DECLARATION_SCHEMA, parseVariableDeclarations, type VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';

/** What the declaration form holds: text per field, and the boolean default. */
export interface DeclarationDraft {
  readonly id: string;
  readonly type: VariableType;
  readonly label: string;
  readonly default: string;
  readonly defaultFlag: boolean;
  /** The type's own fields (`placeholder`, `min`, …) as typed; `options` as lines `value` or `value: label`. */
  readonly fields: Readonly<Record<string, string>>;
}

/** The default a new declaration of each type starts with (one its own schema accepts). */
const STARTING_DEFAULTS: Readonly<Record<VariableType, unknown>> = {
  string: '',
  number: 0,
  color: '#000000',
  boolean: false,
  enum: 'a',
  font: 'sans-serif',
  image: '',
};

/** Fields a type's schema reads as numbers. */
const NUMBER_FIELDS = new Set(['maxLength', 'min', 'max', 'step']);

/** A valid declaration of `type` named `id` (what "add" and "declare" start from). */
export function newDeclaration(id: string, type: VariableType): VariableDeclaration {
  const declaration: Record<string, unknown> = { id, type, label: id, default: STARTING_DEFAULTS[type] };
  if (type === VariableType.enum) declaration.options = [{ value: 'a', label: 'A' }];
  return declaration as VariableDeclaration;
}

/** An id not in `taken`: `base`, else `base2`, `base3`, … */
export function freeId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

const optionLines = (options: unknown) =>
  Array.isArray(options)
    ? options
        .map((option) =>
          option?.label === option?.value ? String(option?.value) : `${option?.value}: ${option?.label}`,
        )
        .join('\n')
    : '';

/** The form's starting draft for `declaration`. */
export function draftOf(declaration: VariableDeclaration): DeclarationDraft {
  const record = declaration as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const field of Object.keys(DECLARATION_SCHEMA[declaration.type].fields)) {
    fields[field] =
      field === 'options' ? optionLines(record.options) : record[field] === undefined ? '' : String(record[field]);
  }
  const isFlag = declaration.type === VariableType.boolean;
  return {
    id: declaration.id,
    type: declaration.type,
    label: declaration.label,
    default: isFlag ? '' : String(declaration.default),
    defaultFlag: isFlag && declaration.default === true,
    fields,
  };
}

const parseOptions = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { value: line, label: line }
        : { value: line.slice(0, colon).trim(), label: line.slice(colon + 1).trim() };
    });

/**
 * The declaration a draft describes, keeping what `base` holds beyond the form (`description`, …); a type change
 * drops the old type's fields. Not checked: {@link checkedList} is.
 */
export function declarationOf(draft: DeclarationDraft, base?: VariableDeclaration): Record<string, unknown> {
  const record: Record<string, unknown> = { ...base };
  if (base) for (const field of Object.keys(DECLARATION_SCHEMA[base.type].fields)) delete record[field];
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const defaults: Record<VariableType, unknown> = {
    ...STARTING_DEFAULTS,
    string: draft.default,
    color: draft.default,
    enum: draft.default,
    font: draft.default,
    image: draft.default,
    number: number(draft.default),
    boolean: draft.defaultFlag,
  };
  Object.assign(record, { id: draft.id, type: draft.type, label: draft.label, default: defaults[draft.type] });
  for (const field of Object.keys(DECLARATION_SCHEMA[draft.type].fields)) {
    const text = draft.fields[field] ?? '';
    if (text.trim() === '') continue;
    record[field] = field === 'options' ? parseOptions(text) : NUMBER_FIELDS.has(field) ? number(text) : text;
  }
  return record;
}

/** `list` as declarations, or the errors `parseVariableDeclarations` finds in it (warnings let it through). */
export function checkedList(list: readonly unknown[]): { declarations: VariableDeclaration[] } | { issues: Issue[] } {
  const { declarations, issues } = parseVariableDeclarations(list);
  const errors = issues.filter((found) => found.severity === 'error');
  return errors.length > 0 || declarations.length !== list.length
    ? { issues: errors.length > 0 ? errors : issues }
    : { declarations };
}
