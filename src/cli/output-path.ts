/**
 * `--output` templates: `{index}`, `{render_id}`, `{ext}`, `{name}` and `{<variable id>}` from the row, one rule in
 * `fx render` and `fx cloud render`: `{index}`, `{render_id}` and `{ext}` are always the row's number, the render's id
 * and the format (a row variable of one of those names is refused where the template names it, never shadowed
 * silently); `{name}` is the row's `name` when it has one, else the entry file's name without extension. Every row's
 * path is worked out and checked before anything renders: a missing key, a value that is not a
 * string/number/boolean, a value that names no file, a file name too long, or two rows writing one file refuse the
 * whole batch (`cli_output_invalid`).
 *
 * A value fills one path segment, escaped, never read as a template: path separators, characters file systems
 * reserve (`: * ? " < > |`), control characters (NUL included) and `{ }` each become `_`. A value that is empty or
 * only dots (`.`, `..`) is refused rather than guessed at.
 */
import { resolve } from 'node:path';
import { cliError, CliErrorCode } from './errors.js';

export const Placeholder = { index: 'index', renderId: 'render_id', ext: 'ext' } as const;
/** The placeholders that always mean themselves, with what they are. */
const BUILT_IN = new Map<string, string>([
  [Placeholder.index, "row's number"],
  [Placeholder.renderId, "render's id"],
  [Placeholder.ext, "video's format"],
]);
/** The row's `name`, else the entry file's. */
const NAME = 'name';
const PLACEHOLDER = /\{([^{}]+)\}/g;
const ESCAPED = /[/\\:*?"<>|{}\x00-\x1f\x7f]/g;
/** Bytes in one file name on the usual file systems (ext4, APFS, NTFS in UTF-16 units is more). */
const MAX_NAME_BYTES = 255;

export interface PathValues {
  readonly index?: number;
  readonly render_id?: string;
  readonly ext?: string;
  /** The entry's file name without extension: `{name}` when the row has no `name`. */
  readonly name?: string;
  readonly row: Readonly<Record<string, unknown>>;
}

/** Fills a template in one pass; placeholders of `late` (e.g. `render_id`, known only after submit) are kept as written. */
export function fillOutputPath(template: string, values: PathValues, late: readonly string[] = []): string {
  const row = values.index ?? 0;
  const refuse = (message: string) => cliError(CliErrorCode.outputInvalid, `"--output" ${message}`);
  const filled = template.replace(PLACEHOLDER, (whole, name: string) => {
    if (BUILT_IN.has(name) && Object.hasOwn(values.row, name)) {
      throw refuse(
        `names {${name}}, which is the ${BUILT_IN.get(name)} and also a variable of row ${row}; rename the variable`,
      );
    }
    if (late.includes(name)) return whole;
    const value = BUILT_IN.has(name)
      ? (values as unknown as Record<string, unknown>)[name]
      : Object.hasOwn(values.row, name)
        ? values.row[name]
        : name === NAME
          ? values.name
          : undefined;
    if (value === undefined) throw refuse(`names {${name}}, which row ${row} does not have`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw refuse(`names {${name}}, whose value in row ${row} is not a string, number or boolean`);
    }
    const segment = String(value).replace(ESCAPED, '_');
    if (/^\.*$/.test(segment)) {
      throw refuse(`names {${name}}, whose value in row ${row} (${JSON.stringify(value)}) would name no file`);
    }
    return segment;
  });
  const long = filled.split(/[/\\]/).find((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
  if (long !== undefined) {
    throw refuse(`makes a file name of ${Buffer.byteLength(long)} bytes in row ${row}; at most ${MAX_NAME_BYTES}`);
  }
  return filled;
}

/**
 * Every row's path (with `late` placeholders still in it), checked: throws `cli_output_invalid` for the first
 * problem, before any row renders.
 */
export function planOutputPaths(
  template: string,
  rows: readonly Readonly<Record<string, unknown>>[],
  fixed: Omit<PathValues, 'row' | 'index'>,
  late: readonly string[] = [],
): string[] {
  const paths = rows.map((row, index) => fillOutputPath(template, { ...fixed, index, row }, late));
  const seen = new Map<string, number>();
  const unique = late.includes(Placeholder.renderId) && template.includes(`{${Placeholder.renderId}}`);
  paths.forEach((path, index) => {
    const absolute = resolve(path);
    const earlier = seen.get(absolute);
    if (earlier !== undefined && !unique) {
      throw cliError(
        CliErrorCode.outputInvalid,
        `"--output" gives rows ${earlier} and ${index} the same file ${JSON.stringify(path)}`,
      );
    }
    seen.set(absolute, index);
  });
  return paths;
}
