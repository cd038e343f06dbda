/**
 * The issues shown next to each input: `validateVariables` of the overrides (what the CLI and the service check
 * `--variables` with), plus what the composition's frame reported about applying a value (a refused image URL or
 * font source, a value CSS refused). Same codes and messages as everywhere else; only their place is the panel's.
 */
import { Attr } from '../../runtime/constants.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { BindingIssueCode, type Issue } from '../../runtime/issues.js';
import { validateVariables } from '../../runtime/values.js';

export interface PlacedIssues {
  /** Issues by declared variable id. */
  readonly byId: ReadonlyMap<string, readonly Issue[]>;
  /** Issues of no declared variable (an undeclared override). */
  readonly general: readonly Issue[];
}

const VALUE_BINDING_CODES: ReadonlySet<string> = new Set([
  BindingIssueCode.urlRefused,
  BindingIssueCode.valueNotScalar,
]);

/** The declared id a frame-reported issue is about, when it is about applying that id's value. */
function reportedId(found: Issue, declared: ReadonlySet<string>): string | undefined {
  const [first, second] = found.path;
  if (typeof first !== 'string') return undefined;
  if (declared.has(first)) return first;
  if (first.startsWith('--') && declared.has(first.slice(2))) return first.slice(2);
  if (
    (first === Attr.varSrc || first === Attr.varText) &&
    typeof second === 'string' &&
    declared.has(second) &&
    VALUE_BINDING_CODES.has(found.code)
  )
    return second;
  return undefined;
}

export function placeIssues(
  overrides: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  reported: readonly Issue[],
): PlacedIssues {
  const declared = new Set(declarations.map((declaration) => declaration.id));
  const byId = new Map<string, Issue[]>();
  const general: Issue[] = [];
  const place = (id: string | undefined, found: Issue) => {
    if (id === undefined) return void general.push(found);
    const list = byId.get(id) ?? [];
    if (!list.some((known) => known.code === found.code && known.message === found.message)) list.push(found);
    byId.set(id, list);
  };
  for (const found of validateVariables(overrides, declarations)) {
    const id = found.path[0];
    place(typeof id === 'string' && declared.has(id) ? id : undefined, found);
  }
  for (const found of reported) {
    const id = reportedId(found, declared);
    if (id !== undefined) place(id, found);
  }
  return { byId, general };
}
