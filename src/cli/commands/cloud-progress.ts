/** The progress line of a cloud render, shared by `fx cloud render`, its batch (which names the row) and `fx cloud get`. */
import { describeProgress, progressFraction, type CloudRenderProgress } from '../../client/progress.js';
import type { Output } from '../output.js';
import { frameCounts } from '../stage-timing.js';

export function showProgress(out: Output, progress: CloudRenderProgress, fields: Record<string, unknown> = {}): void {
  const prefix = 'row' in fields ? `row ${fields.row}: ` : '';
  const frames = 'framesDone' in progress ? frameCounts(progress.framesDone, progress.framesTotal) : frameCounts(0, 0);
  out.progress(
    progress.stage,
    `${prefix}${describeProgress(progress)}${frames.text}`,
    progressFraction(progress),
    fields,
    frames.counts,
  );
}
