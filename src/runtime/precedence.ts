import { undeclaredMessage } from './did-you-mean.js';
import type { VariableDeclaration } from './declarations.js';
import { ValueIssueCode, issue, describe, type Issue } from './issues.js';
import { checkValue, withinRange, type VariableValues } from './values.js';

export interface ResolveLayers {
  /** `data-variable-values` of the sub-composition host, for an instance. */
  readonly host?: unknown;
  /** Overrides (CLI `--variables`, `window.__fxVariables`, the element's `variables`). Top level only. */
  readonly overrides?: unknown;
  /** False for a sub-composition instance: overrides never reach it. Defaults to true. */
  readonly topLevel?: boolean;
}

export interface ResolvedVariables {
  readonly values: Record<string, unknown>;
  readonly issues: Issue[];
}

/**
 * The one precedence model: declared defaults < host `data-variable-values` < overrides (top level only).
 * A key missing from a layer, or holding a value its declaration refuses, falls to the next lower layer. A number
 * outside its declared `min`/`max` is clamped into it, with an `out-of-range` warning.
 * Undeclared keys are passed through (scripts may read them) and reported as `undeclared`.
 *
 * @example
 * resolveVariables(declarations, { overrides: { title: 'Hi' } }).values.title; // 'Hi'
 */
export function resolveVariables(
  declarations: readonly VariableDeclaration[],
  layers: ResolveLayers = {},
): ResolvedVariables {
  const values: Record<string, unknown> = Object.create(null);
  const issues: Issue[] = [];
  for (const declaration of declarations) values[declaration.id] = withinRange(declaration, declaration.default);

  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const apply = (layer: unknown, name: string) => {
    if (layer === undefined || layer === null) return;
    if (typeof layer !== 'object' || Array.isArray(layer)) {
      issues.push(issue(ValueIssueCode.valuesInvalid, [name], `${name} must be a JSON object, got ${describe(layer)}`));
      return;
    }
    for (const [id, value] of Object.entries(layer as VariableValues)) {
      if (value === undefined) continue;
      const declaration = byId.get(id);
      if (!declaration) {
        issues.push(issue(ValueIssueCode.undeclared, [name, id], undeclaredMessage(id, byId.keys()), 'warning'));
        values[id] = value;
        continue;
      }
      const found = checkValue(declaration, value, [name, id]);
      if (found) issues.push(found);
      if (!found || found.severity === 'warning') values[id] = withinRange(declaration, value);
    }
  };
  apply(layers.host, 'host');
  if (layers.topLevel !== false) apply(layers.overrides, 'overrides');
  return { values: { ...values }, issues };
}
