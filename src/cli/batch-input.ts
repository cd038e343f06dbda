/** `--batch rows.json|rows.csv`: the rows as the client's batch takes them, and as plain objects for `--output`. */
import { extname } from 'node:path';
import { parseCsv } from '../client/csv.js';
import { BatchErrorCode } from '../client/batch-rows.js';
import { FxError } from '../runtime/errors.js';
import { readText } from './variables.js';

export interface BatchInput {
  /** What `cloudRenderBatch` / `batchRows` take: an array of objects, or the CSV text (typed by the declarations). */
  readonly rows: readonly unknown[] | string;
  /** The rows as objects (CSV cells as strings), for output placeholders. */
  readonly objects: readonly Record<string, unknown>[];
}

export async function readBatch(path: string): Promise<BatchInput> {
  const text = await readText(path);
  if (extname(path).toLowerCase() === '.csv') return { rows: text, objects: parseCsv(text) };
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw new FxError(
      BatchErrorCode.rowsInvalid,
      `--batch ${path} is not valid JSON (or name it .csv): ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (!Array.isArray(rows) || rows.some((row) => typeof row !== 'object' || row === null || Array.isArray(row))) {
    throw new FxError(BatchErrorCode.rowsInvalid, `--batch ${path} must hold a JSON array of objects (one per render)`);
  }
  return { rows, objects: rows as Record<string, unknown>[] };
}
