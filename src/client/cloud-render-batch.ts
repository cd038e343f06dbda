import { isFxError } from '../runtime/errors.js';
import type { Issue } from '../runtime/issues.js';
import { ErrorCode, FailureCode } from '../wire/constants.js';
import type { RenderRequest } from '../wire/render-request.js';
import type { Render } from '../wire/responses.js';
import { batchRows } from './batch-rows.js';
import { checkIdempotencyKey } from './checks.js';
import {
  prepareProject,
  submitAndFinish,
  withAbortError,
  type CloudProject,
  type CloudRenderOptions,
} from './cloud-render.js';
import { ClientErrorCode, refused } from './errors.js';
import { fillMetadata } from './metadata-placeholders.js';
import { checkRequest } from './render-settings.js';
import type { CloudRenderProgress } from './progress.js';

export const MAX_BATCH_CONCURRENCY = 16;
/** 255 (the service's longest key) less room for `.` and a row number. */
const MAX_BATCH_KEY_LENGTH = 240;

export interface CloudBatchOptions extends Omit<CloudRenderOptions, 'onProgress'> {
  /** Rows rendered at once, 1–16. Default 1. */
  readonly concurrency?: number;
  /** Progress of the shared stages (zipping, uploading: no `row`) and of each row's own. */
  readonly onProgress?: (progress: CloudRenderProgress & { readonly row?: number }) => void;
  /** Called as each row ends, in the order they end. */
  readonly onRow?: (row: BatchManifestRow, video: Blob | undefined) => void;
}

/** One row's outcome, as `manifest.json` lists it. */
export interface BatchManifestRow {
  readonly row: number;
  readonly status: 'queued' | 'completed' | 'failed';
  readonly render_id: string | null;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The row's `metadata`, its placeholders filled (null without `metadata`). */
  readonly metadata: Readonly<Record<string, unknown>> | null;
  /** The submit fields every row shares (`format`, `fps`, `time`, `range`, …), as sent. */
  readonly request: Readonly<RenderRequest>;
  readonly video_url: string | null;
  readonly warnings: readonly Issue[];
  readonly error: { readonly code: string; readonly message: string } | null;
}

/**
 * Renders a project once per row of values (an array of objects, or a CSV text), each row merged over
 * `options.variables`. Every row is checked before the project is uploaded (one upload for all rows) and before
 * the first submit: one bad row refuses the batch (`batch_rows_refused`, every row's issues listed). Rows run
 * `concurrency` at a time; a failed row does not stop the others; an abort stops them all. With
 * `idempotencyKey`, row `i` submits with `key.i`, so the whole batch can be repeated without duplicates.
 * `metadata` may name row values (`{ "customer": "{id}" }`, see `fillMetadata`): each row's is filled and checked
 * before the upload too (`batch_metadata_placeholder_invalid`, `metadata_too_large`…). `dryRun` is one call's
 * (`cloudRender`), refused here. Resolves with one manifest row per input row, in row order.
 */
export function cloudRenderBatch(
  project: CloudProject,
  rows: readonly unknown[] | string,
  options: CloudBatchOptions,
): Promise<BatchManifestRow[]> {
  return withAbortError(options.signal, () => runBatch(project, rows, options));
}

async function runBatch(
  project: CloudProject,
  input: readonly unknown[] | string,
  options: CloudBatchOptions,
): Promise<BatchManifestRow[]> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_BATCH_CONCURRENCY) {
    throw refused(
      ClientErrorCode.optionInvalid,
      `"concurrency" must be an integer from 1 to ${MAX_BATCH_CONCURRENCY}, got ${JSON.stringify(concurrency)}`,
    );
  }
  if ((options as { dryRun?: boolean }).dryRun) {
    throw refused(
      ClientErrorCode.optionInvalid,
      '"dryRun" asks about one render: call cloudRender with dryRun for the rows you want checked',
    );
  }
  const baseKey = options.idempotencyKey === undefined ? undefined : checkIdempotencyKey(options.idempotencyKey);
  const rowKey = (row: number) => (baseKey === undefined ? undefined : `${baseKey}.${row}`);
  if (baseKey !== undefined && baseKey.length > MAX_BATCH_KEY_LENGTH) {
    throw refused(
      ErrorCode.idempotencyKeyInvalid,
      `a batch's "idempotencyKey" is at most ${MAX_BATCH_KEY_LENGTH} characters, leaving room for ".<row>"`,
      'Idempotency-Key',
    );
  }
  const prepared = await prepareProject(project, options, (local) => {
    const { rows, warnings } = batchRows(
      input,
      options.variables ?? local?.variables ?? {},
      local?.metadata?.variables ?? [],
      options.strictVariables,
    );
    return rows.map((variables, row) => ({
      variables,
      warnings: warnings.filter((found) => found.path[1] === row),
      ...(options.metadata ? { metadata: rowMetadata(options.metadata, variables, row) } : {}),
    }));
  });

  const manifest: BatchManifestRow[] = new Array(prepared.rows.length);
  let next = 0;
  const runRows = async () => {
    for (let row = next++; row < prepared.rows.length; row = next++) {
      const prepare = prepared.rows[row]!;
      const { variables, warnings } = prepare;
      const described = { variables, metadata: prepare.metadata ?? null, request: sharedFields(prepared.request) };
      let video: Blob | undefined;
      try {
        const onProgress =
          options.onProgress && ((progress: CloudRenderProgress) => options.onProgress!({ ...progress, row }));
        const result = await submitAndFinish(prepared, prepare, rowKey(row), options, onProgress);
        video = result.video;
        manifest[row] = manifestRow(row, described, warnings, result.render, null);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = {
          code: isFxError(error) ? error.code : FailureCode.failed,
          message: error instanceof Error ? error.message : String(error),
        };
        manifest[row] = manifestRow(row, described, warnings, undefined, failure);
      }
      options.onRow?.(manifest[row]!, video);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, prepared.rows.length) }, runRows));
  return manifest;
}

/** A row's metadata, filled, and checked as its submit will be (size, depth) before anything is uploaded. */
function rowMetadata(
  template: Readonly<Record<string, unknown>>,
  variables: Readonly<Record<string, unknown>>,
  row: number,
): Record<string, unknown> {
  const metadata = fillMetadata(template, variables, row);
  checkRequest({ asset_id: 'pending', metadata });
  return metadata;
}

/** The request's fields but its source and the per-row ones, for the manifest. */
function sharedFields(request: RenderRequest): RenderRequest {
  const { asset_id: _asset, url: _url, composition: _composition, metadata: _metadata, ...fields } = request;
  return fields;
}

function manifestRow(
  row: number,
  described: Pick<BatchManifestRow, 'variables' | 'metadata' | 'request'>,
  warnings: readonly Issue[],
  render: Render | undefined,
  error: BatchManifestRow['error'],
): BatchManifestRow {
  const status = error ? 'failed' : render!.status === 'completed' ? 'completed' : 'queued';
  return {
    row,
    status,
    render_id: render?.render_id ?? null,
    ...described,
    video_url: render?.video_url ?? null,
    warnings,
    error,
  };
}
