/**
 * `fx render --batch`: every row checked (values and output paths) before the first renders, then `renderBatch`
 * with `manifest.json` next to the outputs rewritten as each row starts and ends. The manifest describes this batch
 * only: `--resume` keeps a row of the old one when it completed with the same values, output and settings and its
 * file is still there; every other row (changed, or beyond the old batch) renders, and old rows past this batch go.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { batchRows } from '../../client/batch-rows.js';
import { renderBatch } from '../../render/batch.js';
import { MAX_CONCURRENCY } from '../../render/options.js';
import { render } from '../../render/render.js';
import { FailureCode } from '../../wire/constants.js';
import type { RenderOptions } from '../../render/types.js';
import { readBatch } from '../batch-input.js';
import { stringFlag, type CommandContext } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { INSTALL_CODES } from '../install-errors.js';
import { MANIFEST_FILE, ManifestWriter } from '../manifest.js';
import { OutputEvent } from '../output.js';
import { planOutputPaths } from '../output-path.js';
import { showRenderProgress, type LocalRender } from './local-render.js';
import { DEFAULT_BATCH_OUTPUT } from './render-flags.js';
import { batchConcurrency } from '../shared-render-flags.js';

export interface LocalManifestRow {
  /** The row's number from 0, named as in `fx cloud render`'s manifest. */
  readonly row: number;
  readonly output: string;
  readonly status: 'pending' | 'rendering' | 'completed' | 'failed';
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly duration_ms: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly variables: Readonly<Record<string, unknown>>;
  /** What else makes the video: a row rendered with other settings is rendered again on `--resume`. */
  readonly settings: Readonly<Record<string, unknown>>;
}

export async function renderBatchRows(
  context: CommandContext,
  local: LocalRender,
  base: Record<string, unknown>,
  batchPath: string,
): Promise<number> {
  const { out } = context;
  const concurrency = batchConcurrency(context.values, MAX_CONCURRENCY);
  const input = await readBatch(batchPath);
  // Values (typed from CSV by the declarations), then output paths: any failure renders nothing.
  const { rows, warnings } = batchRows(input.rows, base, local.declarations, local.strict);
  for (const issue of warnings) out.warning(`row ${issue.path[1]}: ${issue.message}`, { issue });
  const template = stringFlag(context, 'output') ?? DEFAULT_BATCH_OUTPUT;
  const outputs = planOutputPaths(template, rows, { ext: local.base.format, name: local.name });
  const manifest = new ManifestWriter<LocalManifestRow>(join(dirname(outputs[0] ?? template), MANIFEST_FILE));
  const previous = context.values.resume ? await manifest.load() : [];
  const settings = manifestSettings(local);
  const entry = (index: number, fields: Partial<LocalManifestRow>): LocalManifestRow => ({
    row: index,
    output: outputs[index]!,
    status: 'pending',
    started_at: null,
    finished_at: null,
    duration_ms: null,
    error: null,
    variables: rows[index]!,
    settings,
    ...fields,
  });
  const done = (index: number) => {
    const row = previous[index];
    return (
      row?.status === 'completed' &&
      row.output === outputs[index] &&
      isDeepStrictEqual(row.variables, rows[index]) &&
      isDeepStrictEqual(row.settings, settings) &&
      existsSync(outputs[index]!)
    );
  };
  const kept = rows.map((_row, index) => done(index));
  const todo = rows.flatMap((_row, index) => (kept[index] ? [] : [index]));
  await manifest.start(rows.map((_row, index) => (kept[index] ? previous[index]! : entry(index, {}))));
  if (todo.length < rows.length) out.note(`resuming: ${rows.length - todo.length} row(s) already completed`);
  const byOutput = new Map(todo.map((index) => [resolve(outputs[index]!), index]));
  // A broken install (no Chromium, no FFmpeg) fails every row alike: the first such failure stops the batch.
  const batch = new AbortController();
  const stopBatch = () => batch.abort(context.signal.reason);
  context.signal.addEventListener('abort', stopBatch, { once: true });
  let broken: unknown;

  // Each row through the one renderer, with its manifest entry kept current.
  const renderRow = async (options: RenderOptions) => {
    const index = byOutput.get(resolve(options.outputPath))!;
    const started = Date.now();
    await manifest.set(index, entry(index, { status: 'rendering', started_at: new Date(started).toISOString() }));
    const finished = (fields: Partial<LocalManifestRow>) =>
      entry(index, {
        started_at: new Date(started).toISOString(),
        finished_at: new Date().toISOString(),
        duration_ms: Date.now() - started,
        ...fields,
      });
    try {
      const result = await render(options);
      const row = finished({ status: 'completed' });
      await manifest.set(index, row);
      out.event(OutputEvent.result, { stage: 'row', ...row });
      out.note(`row ${index}: completed → ${row.output}`);
      return result;
    } catch (error) {
      const failure = error as { code?: string; message?: string };
      const row = finished({
        status: 'failed',
        error: { code: failure.code ?? FailureCode.failed, message: failure.message ?? String(error) },
      });
      await manifest.set(index, row);
      out.event(OutputEvent.result, { stage: 'row', ...row });
      out.note(`row ${index}: failed (${row.error!.code}: ${row.error!.message})`);
      if (INSTALL_CODES.has(row.error!.code) && broken === undefined) {
        broken = error;
        batch.abort(error);
      }
      throw error;
    }
  };
  const results = await renderBatch(
    {
      ...local.base,
      signal: batch.signal,
      variables: {},
      outputPath: (_row, position) => outputs[todo[position]!]!,
      onProgress: (progress) => showRenderProgress(out, progress, { row: todo[progress.row]! }),
    },
    todo.map((index) => rows[index]!),
    { concurrency },
    renderRow,
  ).finally(() => context.signal.removeEventListener('abort', stopBatch));
  if (broken !== undefined) throw broken;
  if (context.signal.aborted) {
    out.note(`interrupted; run the same command with --resume to render the rest (${manifest.path})`);
    throw context.signal.reason;
  }
  const failed = results.filter((result) => result.status === 'failed').length;
  out.event(OutputEvent.result, {
    stage: 'batch',
    manifest: manifest.path,
    rows: rows.length,
    rendered: todo.length,
    failed,
  });
  out.line(manifest.path);
  return failed > 0 ? ExitCode.failed : ExitCode.ok;
}

/** The settings a row's video depends on besides its values, as JSON keeps them (absent ones left out). */
function manifestSettings(local: LocalRender): Record<string, unknown> {
  const { fps, format, quality, resolution, aspectRatio, composition, time, thumbnailTime, range, loop } = local.base;
  const settings = { composition, fps, format, quality, resolution, aspectRatio, time, thumbnailTime, range, loop };
  return JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
}
