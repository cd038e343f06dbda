/**
 * `fx cloud render --batch`: one upload, one submit per row (`cloudRenderBatch`), each row's video downloaded to
 * its `--output` path as it completes, and `manifest.json` next to the outputs rewritten as rows end.
 */
import { basename, dirname, extname, join } from 'node:path';
import { cloudRenderBatch, type BatchManifestRow } from '../../client/cloud-render-batch.js';
import type { CloudProject, CloudRenderOptions } from '../../client/cloud-render.js';
import { FxClient } from '../../client/fx-client.js';
import { isFxError } from '../../runtime/errors.js';
import { CliErrorCode } from '../errors.js';
import { DEFAULT_COMPOSITION } from '../../wire/constants.js';
import { readBatch } from '../batch-input.js';
import { MAX_BATCH_CONCURRENCY } from '../../client/cloud-render-batch.js';
import type { CommandContext } from '../command.js';
import { showProgress } from './cloud-progress.js';
import { downloadToFile } from '../download-file.js';
import { ExitCode } from '../exit-codes.js';
import { MANIFEST_FILE, ManifestWriter } from '../manifest.js';
import { OutputEvent } from '../output.js';
import { fillOutputPath, planOutputPaths, Placeholder } from '../output-path.js';
import { batchConcurrency } from '../shared-render-flags.js';

/** `{name}` without a row `name`: the entry file's name, as in `fx render` (a URL render's page has none). */
export function entryName(project: CloudProject): string | undefined {
  if ('url' in project || 'embed' in project) return undefined;
  const entry = project.composition ?? DEFAULT_COMPOSITION;
  return basename(entry, extname(entry));
}

export async function cloudBatch(
  context: CommandContext,
  project: CloudProject,
  options: CloudRenderOptions,
  batchPath: string,
  template: string,
): Promise<number> {
  const { out, signal } = context;
  const concurrency = batchConcurrency(context.values, MAX_BATCH_CONCURRENCY);
  const input = await readBatch(batchPath);
  const base = options.variables ?? {};
  const ext = options.format ?? 'mp4';
  // Every row's path before anything is sent; `{render_id}` is known only after each submit, and is then filled
  // from the template again (one pass: a row's value is never read as a placeholder).
  const merged = input.objects.map((row) => ({ ...base, ...row }));
  const name = entryName(project);
  const planned = planOutputPaths(template, merged, { ext, name }, [Placeholder.renderId]);
  const manifest = new ManifestWriter(join(dirname(planned[0] ?? template), MANIFEST_FILE));
  const client = new FxClient(options);
  const downloads: Promise<void>[] = [];
  let failed = 0;

  const onRow = (row: BatchManifestRow) => {
    const output =
      row.render_id === null
        ? null
        : fillOutputPath(template, { ext, name, index: row.row, row: merged[row.row]!, render_id: row.render_id });
    const finish = async () => {
      let entry = { ...row, output: row.status === 'completed' ? output : null };
      if (row.status === 'completed' && output !== null) {
        try {
          await downloadToFile(client, row.render_id!, output, {
            signal,
            onProgress: (bytes, totalBytes) =>
              showProgress(out, { stage: 'downloading', bytes, totalBytes }, { row: row.row }),
          });
        } catch (error) {
          if (signal.aborted) throw error;
          entry = {
            ...entry,
            status: 'failed',
            output: null,
            error: {
              code: isFxError(error) ? error.code : CliErrorCode.downloadFailed,
              message: String((error as Error).message ?? error),
            },
          };
        }
      }
      if (entry.status === 'failed') failed += 1;
      await manifest.set(row.row, entry);
      out.event(OutputEvent.result, { stage: 'row', ...entry });
      out.note(
        `row ${row.row}: ${entry.status}${entry.output ? ` → ${entry.output}` : ''}${entry.error ? ` (${entry.error.code}: ${entry.error.message})` : ''}`,
      );
    };
    // Awaited after the batch; handled now, so one failing (an abort) while others run is no unhandled rejection.
    const download = finish();
    download.catch(() => undefined);
    downloads.push(download);
  };

  try {
    await cloudRenderBatch(project, input.rows, {
      ...options,
      concurrency,
      download: false,
      noWait: context.values['no-wait'] === true,
      onProgress: (progress) => showProgress(out, progress, progress.row === undefined ? {} : { row: progress.row }),
      onRow,
    });
    await Promise.all(downloads);
  } catch (error) {
    await Promise.allSettled(downloads);
    if (signal.aborted)
      out.note(
        `interrupted; rows already submitted go on at the service (see ${manifest.path}, and \`fx cloud list\`)`,
      );
    throw error;
  }
  out.event(OutputEvent.result, { stage: 'batch', manifest: manifest.path, rows: input.objects.length, failed });
  out.line(manifest.path);
  return failed > 0 ? ExitCode.failed : ExitCode.ok;
}
