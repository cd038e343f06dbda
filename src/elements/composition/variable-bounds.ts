import type { VariableDeclaration } from '../../runtime/declarations.js';
import { LayoutIssueCode, describe, issue, type Issue } from '../../runtime/issues.js';
import { FxError } from '../../runtime/errors.js';
import { FxCompositionErrorCode, FxCompositionEvent } from '../internal/constants.js';
import type { FxVariablesChangeDetail } from '../internal/events.js';
import type { FxComposition } from './fx-composition.js';
import { internal } from './unheard-events.js';
import { sameValues } from '../internal/values-equal.js';

/** A wide glyph in most faces: a string of them at the declared `maxLength` is about the widest it allows. */
const WIDE_GLYPH = 'W';
const LAYOUT_CODES: ReadonlySet<string> = new Set(Object.values(LayoutIssueCode));
/**
 * The longest string tried: a composition declares `maxLength` freely (1e15 would throw building it). Any box that
 * holds this many wide glyphs holds more, so a larger maximum does not change the answer.
 */
const MAX_TRIED_LENGTH = 4096;
/** How long one value may take to show (a reload included) before the check gives up. */
const SHOWN_TIMEOUT_MS = 20_000;

/**
 * The values at the edges of what a declaration allows: a `maxLength` string of wide glyphs, `min` and `max` of
 * a number, every enum option, both booleans. Colors, fonts, images and unbounded strings have none.
 */
function boundValues(declaration: VariableDeclaration): unknown[] {
  switch (declaration.type) {
    case 'string':
      return declaration.maxLength ? [WIDE_GLYPH.repeat(Math.min(declaration.maxLength, MAX_TRIED_LENGTH))] : [];
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
 * its message names the value. The element's values are restored at the end. Rejects with the element's `error`
 * (code and message) when a value is refused or a reload fails, or `frame_timeout` when a value never shows. Layout needs a browser, so this is
 * the linter's browser half (`lintComposition` is the static one).
 *
 * @example
 * const issues = await checkVariableBounds(document.querySelector('fx-composition'));
 */
export async function checkVariableBounds(element: FxComposition): Promise<Issue[]> {
  if (!element.ready) await until(element, FxCompositionEvent.ready);
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
  const change = until(element, FxCompositionEvent.variablesChange);
  element.variables = values;
  let { detail } = (await change) as CustomEvent<FxVariablesChangeDetail>;
  while (detail.reloading)
    ({ detail } = (await until(element, FxCompositionEvent.variablesChange)) as CustomEvent<FxVariablesChangeDetail>);
  return detail.issues;
}

/** The next `name` event; rejects on the element's `error` (a refused value, a failed reload) or after a timeout. */
function until(target: EventTarget, name: string): Promise<Event> {
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      clearTimeout(timer);
      target.removeEventListener(name, onEvent);
      target.removeEventListener(FxCompositionEvent.error, onError);
      done();
    };
    // The SDK's own listeners (unheard-events.ts): the page's late ones still hear what these heard.
    const onEvent = internal((event: Event) => settle(() => resolve(event)));
    const onError = internal((event: Event) => {
      const { code, message } = (event as CustomEvent<{ code: string; message: string }>).detail;
      settle(() => reject(new FxError(code, message)));
    });
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new FxError(FxCompositionErrorCode.frameTimeout, `no "${name}" within ${SHOWN_TIMEOUT_MS / 1000} s`)),
        ),
      SHOWN_TIMEOUT_MS,
    );
    target.addEventListener(name, onEvent);
    target.addEventListener(FxCompositionEvent.error, onError);
  });
}
