/**
 * `fx cloud render --dry-run`: the local checks first (the files the upload would hold, the files the compositions
 * name that it lacks), then the service's own (`dry_run: true`): what would be rendered — size, frames, duration,
 * credits — and every warning. No render is created, no credits are used (the project is uploaded, once).
 */
import { cloudRender, type CloudProject, type CloudRenderOptions } from '../../client/cloud-render.js';
import { readProjectDirectory } from '../../client/zip/directory.node.js';
import { sizeOf } from '../../client/zip/sources.js';
import type { DryRun } from '../../wire/responses.js';
import { CompileIssueCode } from '../../runtime/compile/codes.js';
import { FxError } from '../../runtime/errors.js';
import { OutputEvent, type Output } from '../output.js';
import { showProgress } from './cloud-progress.js';
import { missingFromUpload } from './upload-files.js';

/** The local checks; throws `project_file_missing` as the service would (unless `allowMissingFiles`). */
export async function checkUpload(
  out: Output,
  directory: string,
  remote: string | undefined,
  allowMissingFiles: boolean,
): Promise<void> {
  if (remote !== undefined) {
    out.event(OutputEvent.result, { stage: 'files', files: [], total_bytes: 0, remote });
    out.line(`nothing to upload: the render uses ${remote}`);
    return;
  }
  const files = await readProjectDirectory(directory);
  const sizes = files.map((file) => ({ path: file.path, bytes: sizeOf(file.content) }));
  const total = sizes.reduce((sum, file) => sum + file.bytes, 0);
  out.event(OutputEvent.result, { stage: 'files', files: sizes, file_count: sizes.length, total_bytes: total });
  const width = Math.max(0, ...sizes.map((file) => file.path.length));
  for (const file of sizes) out.line(`${file.path.padEnd(width)}  ${formatBytes(file.bytes).padStart(10)}`);
  out.line(`${sizes.length} file(s), ${formatBytes(total)} before compression`);
  const missing = await missingFromUpload(files);
  // With --allow-missing-files the service renders them as missing: warnings, not a refusal.
  const severity = allowMissingFiles ? ('warning' as const) : ('error' as const);
  for (const { file, issue } of missing) {
    out.event(OutputEvent.warning, { file, ...issue, severity });
    out.note(`${file}: ${out.style(allowMissingFiles ? 'yellow' : 'red', severity)} ${issue.code}: ${issue.message}`);
  }
  if (missing.length > 0 && !allowMissingFiles) {
    throw new FxError(
      CompileIssueCode.fileMissing,
      `${missing.length} place(s) name files the upload would not hold; the service would refuse the render. First: ${missing[0]!.issue.message}`,
      { issues: missing.map(({ issue }) => issue) },
    );
  }
}

/** The service's dry run of `project`, printed: what would be rendered, and its warnings. */
export async function serviceDryRun(out: Output, project: CloudProject, options: CloudRenderOptions): Promise<void> {
  const { dryRun, assetId, warnings } = await cloudRender(project, {
    ...options,
    dryRun: true,
    onProgress: (progress) => showProgress(out, progress),
  });
  for (const issue of [...warnings, ...dryRun.warnings]) out.warning(issue.message, { issue });
  out.event(OutputEvent.result, { stage: 'dry_run', asset_id: assetId, dry_run: dryRun });
  for (const line of describeDryRun(dryRun)) out.line(line);
  out.line('nothing was rendered; no credits were used');
}

/** A dry run's answer, in lines for people. */
export function describeDryRun(dryRun: DryRun): string[] {
  const { output } = dryRun;
  const what = `${dryRun.format}, ${dryRun.resolution} ${dryRun.aspect_ratio}, ${dryRun.fps} fps`;
  if (!output) {
    return [
      `would render ${what}; its length is known once the composition's timeline runs`,
      'credits: known once rendered',
    ];
  }
  const frames =
    output.frames === 1 && output.duration === 0
      ? `1 frame at ${seconds(output.start)}`
      : `${output.frames} frames, ${seconds(output.duration)} from ${seconds(output.start)}`;
  return [
    `would render ${what}: ${output.width}×${output.height}, ${frames}`,
    `credits: ${dryRun.credits ?? 'unknown'}`,
  ];
}

const seconds = (value: number) => `${Number(value.toFixed(3))} s`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
