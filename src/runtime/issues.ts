/**
 * Problems found in declarations, values, bindings and compositions are returned as data, so lint, the element,
 * the CLI and the service all show the same thing.
 */
export type IssueSeverity = 'error' | 'warning';
export type IssuePath = readonly (string | number)[];

export interface Issue<Code extends string = string> {
  readonly code: Code;
  readonly severity: IssueSeverity;
  /** Where the problem is: attribute name, array index, field, or variable id. */
  readonly path: IssuePath;
  readonly message: string;
}

/** Codes of problems in a `data-composition-variables` declaration list. */
export const DeclarationIssueCode = {
  jsonInvalid: 'declaration_json_invalid',
  notArray: 'declaration_not_array',
  notObject: 'declaration_not_object',
  fieldMissing: 'declaration_field_missing',
  fieldInvalid: 'declaration_field_invalid',
  typeUnknown: 'declaration_type_unknown',
  defaultTypeMismatch: 'default_type_mismatch',
  duplicateId: 'duplicate_id',
  enumOptionsMissing: 'enum_options_missing',
  enumDefaultNotInOptions: 'enum_default_not_in_options',
  defaultOutOfRange: 'default_out_of_range',
  defaultTooLong: 'default_too_long',
} as const;
export type DeclarationIssueCode = (typeof DeclarationIssueCode)[keyof typeof DeclarationIssueCode];

/** Codes of problems in supplied variable values (the seed's render-time kinds plus two warnings). */
export const ValueIssueCode = {
  undeclared: 'undeclared',
  typeMismatch: 'type-mismatch',
  enumOutOfRange: 'enum-out-of-range',
  outOfRange: 'out-of-range',
  tooLong: 'too-long',
  valuesInvalid: 'values-invalid',
} as const;
export type ValueIssueCode = (typeof ValueIssueCode)[keyof typeof ValueIssueCode];

/** Codes of bindings the runtime refused or could not apply. */
export const BindingIssueCode = {
  undeclared: 'binding_undeclared',
  tagNotAllowed: 'binding_tag_not_allowed',
  urlRefused: 'binding_url_refused',
  valueNotScalar: 'binding_value_not_scalar',
  cssRejected: 'css_property_rejected',
  colorGradingInvalid: 'color_grading_invalid',
  fitInvalid: 'binding_fit_invalid',
  fitMinInvalid: 'binding_fit_min_invalid',
  fitWithoutText: 'binding_fit_without_text',
} as const;
export type BindingIssueCode = (typeof BindingIssueCode)[keyof typeof BindingIssueCode];

/** Codes of bound elements that do not hold their value in the layout (measured in the frame, as warnings). */
export const LayoutIssueCode = {
  overflows: 'variable_overflows',
  overlaps: 'variable_overlaps',
} as const;
export type LayoutIssueCode = (typeof LayoutIssueCode)[keyof typeof LayoutIssueCode];

export function issue<Code extends string>(
  code: Code,
  path: IssuePath,
  message: string,
  severity: IssueSeverity = 'error',
): Issue<Code> {
  return { code, severity, path, message };
}

/** Short description of a value for messages: its JSON (clipped) or its type. */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const json = JSON.stringify(value);
    return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    return typeof value;
  }
}
