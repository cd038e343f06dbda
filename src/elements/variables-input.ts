/** The `variables` attribute and property: parsed, and checked before anything goes to the frame. */
import { isRecord } from '../runtime/data.js';
import { valueBoundsProblem } from './value-bounds.js';

/** Turns the `variables` attribute (JSON) into an object, or `undefined` when it is not a JSON object. */
export const variablesConverter = {
  fromAttribute(value: string | null): Record<string, unknown> | undefined {
    if (value === null || value.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  },
};

/** Why `variables` (`undefined`: the `attribute` did not parse) cannot go to the frame, or `undefined`. */
export function variablesProblem(variables: Record<string, unknown> | undefined, attribute: string | null): string | undefined {
  if (variables === undefined) return `"variables" must be a JSON object, got ${JSON.stringify((attribute ?? '').slice(0, 60))}`;
  return valueBoundsProblem(variables);
}
