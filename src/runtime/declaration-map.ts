/**
 * The object form of `data-composition-variables`, as some HyperFrames blocks write it:
 * `{ "<id>": { "type", "default", "label"?, … } }`. Each entry becomes the array form's declaration, its key the
 * `id` and the `label` where the entry names none. Shared by the lean parser and the zod schemas, so both read it alike.
 */

/** `[key, entry]` of each declaration: array indexes, or the keys of the object form. */
export function declarationEntries(
  list: readonly unknown[] | Record<string, unknown>,
): [key: number | string, entry: unknown][] {
  // Array.from turns holes into undefined entries, reported like any non-object: nothing is dropped silently.
  if (Array.isArray(list)) return Array.from(list).map((entry, index) => [index, entry]);
  return Object.keys(list).map((key) => [key, fromMapEntry(key, (list as Record<string, unknown>)[key])]);
}

/** The declarations of a parsed `data-composition-variables` value in either form, unchecked; `[]` for anything else. */
export function declarationList(value: unknown): unknown[] {
  return Array.isArray(value) || isDeclarationMap(value) ? declarationEntries(value).map(([, entry]) => entry) : [];
}

/**
 * True for the object form: an object whose every value is an object. Anything else that is no array (one
 * declaration without its brackets, whose values are strings) is refused as `declaration_not_array`.
 */
export function isDeclarationMap(value: unknown): value is Record<string, Record<string, unknown>> {
  return isObject(value) && Object.values(value).every(isObject);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One object-form entry as an array-form declaration. */
function fromMapEntry(key: string, entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  return { ...entry, id: entry.id ?? key, label: entry.label ?? key };
}
