/**
 * `--output` templates: `{index}`, `{render_id}`, `{ext}`, `{name}` and `{<variable id>}` from the row. Every row's path is
 * worked out and checked before anything renders: a missing key, a value that is not a string/number/boolean, or
 * two rows writing one file refuse the whole batch.
 */
import { resolve } from 'node:path';
import { cliError, CliErrorCode } from './errors.js';

export const Placeholder = { index: 'index', renderId: 'render_id', ext: 'ext' } as const;
const PLACEHOLDER = /\{([^{}]+)\}/g;
/** A value becomes one path segment: separators and characters some file systems refuse become `_`. */
const UNSAFE = /[/\\:*?"<>|\x00-\x1f]/g;

export interface PathValues {
  readonly index?: number;
  readonly render_id?: string;
  readonly ext?: string;
  /** The entry's file name without extension (local renders). */
  readonly name?: string;
  readonly row: Readonly<Record<string, unknown>>;
}

/** Fills a template; placeholders of `late` (e.g. `render_id`, known only after submit) are kept as written. */
export function fillOutputPath(template: string, values: PathValues, late: readonly string[] = []): string {
  const filled = template.replace(PLACEHOLDER, (whole, name: string) => {
    if (late.includes(name)) return whole;
    const value =
      name in values && name !== 'row' ? (values as unknown as Record<string, unknown>)[name] : values.row[name];
    if (value === undefined)
      throw cliError(
        CliErrorCode.outputInvalid,
        `"--output" names {${name}}, which row ${values.index ?? 0} does not have`,
      );
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw cliError(
        CliErrorCode.outputInvalid,
        `"--output" names {${name}}, whose value in row ${values.index ?? 0} is not a string, number or boolean`,
      );
    }
    const segment = String(value).replace(UNSAFE, '_');
    return segment === '.' || segment === '..' || segment === '' ? '_' : segment;
  });
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
  const unique = late.some((name) => template.includes(`{${name}}`) && name === Placeholder.renderId);
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
