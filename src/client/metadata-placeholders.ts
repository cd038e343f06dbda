/**
 * A batch's `metadata` filled from each row, with the `--output` template's placeholder syntax (`{id}`): a string
 * value that is exactly `"{id}"` takes the row's value as it is (a number stays a number); a string with `{id}`
 * among other text takes it as text (a string, number or boolean only). `{index}` is the row's number unless the
 * row has an `index` of its own. Only values are filled, at any depth (keys are kept as written), in one pass: a
 * row's value is never read as a placeholder. No Node API: the same in a browser.
 */
import { FxError } from '../runtime/errors.js';
import { BatchErrorCode } from './batch-rows.js';

const PLACEHOLDER = /\{([^{}]+)\}/g;
const WHOLE = /^\{([^{}]+)\}$/;

/**
 * `template` with every placeholder filled from `row` (row number `index`); a placeholder the row does not have, or
 * an object value inside text, refuses with `batch_metadata_placeholder_invalid`.
 */
export function fillMetadata(
  template: Readonly<Record<string, unknown>>,
  row: Readonly<Record<string, unknown>>,
  index: number,
): Record<string, unknown> {
  const valueOf = (name: string, path: string): unknown => {
    if (Object.hasOwn(row, name)) return row[name];
    if (name === 'index') return index;
    throw refuse(`"metadata${path}" names {${name}}, which row ${index} does not have`);
  };
  const fill = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const whole = WHOLE.exec(value);
      if (whole) return valueOf(whole[1]!, path);
      return value.replace(PLACEHOLDER, (_, name: string) => {
        const found = valueOf(name, path);
        if (typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean') return String(found);
        throw refuse(
          `"metadata${path}" names {${name}} inside text, and its value in row ${index} is not a string, number or boolean; make the value exactly "{${name}}"`,
        );
      });
    }
    if (Array.isArray(value)) return value.map((item, at) => fill(item, `${path}[${at}]`));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, `${path}.${key}`)]));
    }
    return value;
  };
  return fill(template, '') as Record<string, unknown>;
}

const refuse = (message: string) => new FxError(BatchErrorCode.metadataPlaceholderInvalid, message);
