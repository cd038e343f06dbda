import type { VariableDeclaration } from '../runtime/declarations.js';
import { LayoutIssueCode, describe, issue, type Issue } from '../runtime/issues.js';
import { FxEvent } from './constants.js';
import type { FxVariablesChangeDetail } from './events.js';
import type { FxComposition } from './fx-composition.js';
import { sameValues } from './values-equal.js';

/** A wide glyph in most faces: a string of them at the declared `maxLength` is about the widest it allows. */
const WIDE_GLYPH = 'W';
const LAYOUT_CODES: ReadonlySet<string> = new Set(Object.values(LayoutIssueCode));

/**
 * The values at the edges of what a declaration allows: a `maxLength` string of wide glyphs, `min` and `max` of
 * a number, every enum option, both booleans. Colors, fonts, images and unbounded strings have none.
 */
export function boundValues(declaration: VariableDeclaration): unknown[] {
  switch (declaration.type) {
    case 'string':
      return declaration.maxLength ? [WIDE_GLYPH.repeat(declaration.maxLength)] : [];
    case 'number':
      return [declaration.min, declaration.max].filter((bound) => bound !== undefined);
    case 'enum':
      return declaration.options.map((option) => option.value);
    case 'boolean':
      return [true, false];
    default:
      return [];
  }
}

/**
 * Drives each top-level variable of a ready `<fx-composition>` to its bounds ({@link boundValues}), one at a time
 * with the others as they are, and returns where a bound element does not hold the value: `variable_overflows`
 * (content past its box, or its box past the composition root) and `variable_overlaps` (a laid-out sibling
 * covered), measured in the frame by the runtime that renders. Each issue's path starts with the variable driven;
 * its message names the value. The element's values are restored at the end. Layout needs a browser, so this is
 * the linter's browser half (`lintComposition` is the static one).
 *
 * @example
 * const issues = await checkVariableBounds(document.querySelector('fx-composition'));
 */
export async function checkVariableBounds(element: FxComposition): Promise<Issue[]> {
  if (!element.ready) await until(element, FxEvent.ready);
  const start = element.variables;
  const issues: Issue[] = [];
  try {
    for (const declaration of element.declarations) {
      for (const value of boundValues(declaration)) {
        for (const found of await applied(element, { ...start, [declaration.id]: value }, declaration.id)) {
          if (!LAYOUT_CODES.has(found.code)) continue;
          issues.push(
            issue(
              found.code,
              [declaration.id, ...found.path],
              `with "${declaration.id}" = ${describe(value)}: ${found.message}`,
              found.severity,
            ),
          );
        }
      }
    }
  } finally {
    if (!sameValues(element.variables, start)) await shown(element, start);
  }
  return issues;
}

/** The issues of the frame showing `values`, where `id` is the one that changed. */
async function applied(element: FxComposition, values: Record<string, unknown>, id: string): Promise<readonly Issue[]> {
  if (sameValues(values, element.variables)) {
    // Values in effect are not sent again, so nothing would answer: step away (without `id`) and back.
    const { [id]: _, ...others } = values;
    await shown(element, others);
  }
  return shown(element, values);
}

/** Sets values that differ from those in effect; resolves with the issues of the frame showing them (reloaded if it must). */
async function shown(element: FxComposition, values: Record<string, unknown>): Promise<readonly Issue[]> {
  const change = until(element, FxEvent.variablesChange);
  element.variables = values;
  let { detail } = (await change) as CustomEvent<FxVariablesChangeDetail>;
  while (detail.reloading)
    ({ detail } = (await until(element, FxEvent.variablesChange)) as CustomEvent<FxVariablesChangeDetail>);
  return detail.issues;
}

function until(target: EventTarget, name: string): Promise<Event> {
  return new Promise((resolve) => target.addEventListener(name, resolve, { once: true }));
}
