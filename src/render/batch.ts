import { resolve } from 'node:path';
import { isFxError } from '../runtime/errors.js';
import { abortedError, RenderErrorCode, renderError } from './errors.js';
import { MAX_CONCURRENCY } from './options.js';
import { render } from './render.js';
import type { BatchBaseOptions, BatchOptions, BatchRowResult, RenderFunction } from './types.js';

/**
 * Renders one composition once per row of variable values (each row merged over `base.variables`), `concurrency`
 * rows at a time, and returns one result per row in row order. A failed row does not stop the others; an abort
 * stops them all (rows not finished fail with `render_aborted`). Output paths are checked for collisions before
 * the first row starts.
 *
 * @example
 * const rows = await renderBatch({ ...base, outputPath: (_, i) => `out/${i}.mp4` }, [{ title: 'A' }, { title: 'B' }]);
 */
export async function renderBatch(
  base: BatchBaseOptions,
  rows: readonly Record<string, unknown>[],
  options: BatchOptions = {},
  renderOne: RenderFunction = render,
): Promise<BatchRowResult[]> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw renderError(
      RenderErrorCode.optionInvalid,
      `"concurrency" must be an integer from 1 to ${MAX_CONCURRENCY}, got ${JSON.stringify(concurrency)}`,
    );
  }
  if (!Array.isArray(rows))
    throw renderError(RenderErrorCode.optionInvalid, `"rows" must be an array of objects, got ${typeof rows}`);
  rows.forEach((row, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw renderError(
        RenderErrorCode.optionInvalid,
        `"rows[${index}]" must be an object of variable values, got ${JSON.stringify(row)}`,
      );
    }
  });
  const outputs = rows.map((row, index) => resolve(base.outputPath(row, index)));
  const seen = new Map<string, number>();
  outputs.forEach((path, index) => {
    const earlier = seen.get(path);
    if (earlier !== undefined)
      throw renderError(
        RenderErrorCode.optionInvalid,
        `"outputPath" gives rows ${earlier} and ${index} the same file "${path}"`,
      );
    seen.set(path, index);
  });

  const results: BatchRowResult[] = new Array(rows.length);
  let next = 0;
  const runRows = async () => {
    for (let index = next++; index < rows.length; index = next++) {
      try {
        if (base.signal?.aborted) throw abortedError(base.signal);
        const result = await renderOne({
          ...base,
          variables: { ...base.variables, ...rows[index] },
          outputPath: outputs[index]!,
          onProgress: base.onProgress && ((progress) => base.onProgress!({ ...progress, row: index })),
        });
        results[index] = { row: index, status: 'completed', result };
      } catch (error) {
        const code = isFxError(error) ? error.code : RenderErrorCode.failed;
        results[index] = {
          row: index,
          status: 'failed',
          error: { code, message: error instanceof Error ? error.message : String(error) },
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, runRows));
  return results;
}
