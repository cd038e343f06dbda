/** The `variables` attribute and property: parsed, and checked before anything goes to the frame. */
import { isRecord } from '../../runtime/data.js';
import { valueBoundsProblem } from '../../runtime/value-bounds.js';

/** What a `variables` input comes to: values the frame may get, or why it may not. */
export type VariablesInput = { readonly values: Record<string, unknown> } | { readonly problem: string };

/**
 * Reads what was given as `variables`: `null`, `undefined` and an empty string mean no overrides (the declared
 * defaults); a string is JSON, as the attribute is; an object is taken as it is. It must come to a JSON object
 * within the value bounds (value-bounds.ts), else the answer is the problem.
 */
export function readVariables(input: unknown): VariablesInput {
  if (input === null || input === undefined) return { values: {} };
  let parsed: unknown = input;
  if (typeof input === 'string') {
    if (input.trim() === '') return { values: {} };
    try {
      parsed = JSON.parse(input);
    } catch {
      parsed = undefined;
    }
  }
  if (!isRecord(parsed)) return { problem: `"variables" must be a JSON object, got ${JSON.stringify(shown(input))}` };
  const problem = valueBoundsProblem(parsed);
  return problem ? { problem } : { values: parsed };
}

const shown = (input: unknown) =>
  typeof input === 'string' ? input.slice(0, 60) : Array.isArray(input) ? 'an array' : typeof input;

/** The attribute goes through {@link readVariables} too: lit hands the string on as it is. */
export const variablesConverter = { fromAttribute: (value: string | null) => value };
