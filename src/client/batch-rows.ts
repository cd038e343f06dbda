import type { VariableDeclaration } from '../runtime/declarations.js';
import { FxError } from '../runtime/errors.js';
import { describe, type Issue } from '../runtime/issues.js';
import { assertMayRender } from '../runtime/may-render.js';
import { validateVariables } from '../runtime/values.js';
import { csvRows } from './csv.js';

export const BatchErrorCode = {
  /** The rows are not an array of objects (or a CSV text). */
  rowsInvalid: 'batch_rows_invalid',
  /** Some row's values have errors (or warnings, when strict); every row's issues are in `issues`. */
  rowsRefused: 'batch_rows_refused',
  /** `metadata` names a placeholder a row does not have, or puts an object value inside text (`fillMetadata`). */
  metadataPlaceholderInvalid: 'batch_metadata_placeholder_invalid',
} as const;

/**
 * The batch's rows as variable values, each merged over `base`: an array of objects, or a CSV text whose cells are
 * read by the declared type of their column (`3` → 3 for a number, `true` → true for a boolean; an empty cell keeps
 * the default). Every row is checked against `declarations` before anything is submitted: errors refuse the batch,
 * and warnings too when `strict`; the warnings of an accepted batch are returned with their row in `path`.
 */
export function batchRows(
  rows: readonly unknown[] | string,
  base: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  strict = false,
): { rows: Record<string, unknown>[]; warnings: Issue[] } {
  const types = new Map(declarations.map((declaration) => [declaration.id, declaration.type]));
  const csv = typeof rows === 'string' ? csvRows(rows) : undefined;
  const parsed = csv ? csv.map((row) => fromCsv(row.values, types)) : rows;
  if (!Array.isArray(parsed))
    throw new FxError(
      BatchErrorCode.rowsInvalid,
      `batch rows must be an array of objects or a CSV text, got ${describe(rows)}`,
    );
  // Nothing to render: refused before the project is zipped or uploaded for it.
  if (parsed.length === 0) throw new FxError(BatchErrorCode.rowsInvalid, 'the batch has no rows');
  const merged = parsed.map((row: unknown, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new FxError(
        BatchErrorCode.rowsInvalid,
        `batch row ${index} must be an object of variable values, got ${describe(row)}`,
      );
    }
    return { ...base, ...row } as Record<string, unknown>;
  });
  // A CSV row's issues say its line too: that is where the author looks.
  const where = (index: number) => (csv ? ` (CSV line ${csv[index]!.line})` : '');
  const issues = merged.flatMap((values, index) =>
    validateVariables(values, declarations, { path: ['rows', index] }).map((found) =>
      csv ? { ...found, message: `${found.message}${where(index)}` } : found,
    ),
  );
  const warnings = assertMayRender(issues, strict, (refused) => {
    const first = refused[0];
    return new FxError(
      BatchErrorCode.rowsRefused,
      `${refused.length} batch row issue(s), nothing submitted; first: ${first.message} (row ${first.path[1]})`,
      {
        issues: refused,
      },
    );
  });
  return { rows: merged, warnings };
}

/** A CSV row's cells as the values their declarations expect; undeclared columns stay strings (and warn). */
function fromCsv(
  row: Record<string, string>,
  types: ReadonlyMap<string, VariableDeclaration['type']>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [id, cell] of Object.entries(row)) {
    if (cell === '') continue;
    values[id] = readCell(cell, types.get(id));
  }
  return values;
}

function readCell(cell: string, type: VariableDeclaration['type'] | undefined): unknown {
  if (type === 'number') {
    const number = Number(cell.trim());
    return cell.trim() !== '' && Number.isFinite(number) ? number : cell;
  }
  if (type === 'boolean') {
    const word = cell.trim().toLowerCase();
    return word === 'true' ? true : word === 'false' ? false : cell;
  }
  return cell;
}
