/** What `fx render` hands its batch (render-batch.ts): the render's settings, and the progress line both show. */
import type { RenderOptions, RenderProgress } from '../../render/types.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Output } from '../output.js';
import { frameCounts } from '../stage-timing.js';

/** One local render's settings, before its values and output path. */
export interface LocalRender {
  readonly base: Omit<RenderOptions, 'outputPath' | 'variables' | 'onProgress'>;
  readonly declarations: readonly VariableDeclaration[];
  readonly strict: boolean;
  readonly name: string;
}

/** One line of a render's progress (the batch names the row). */
export function showRenderProgress(out: Output, progress: RenderProgress, fields: Record<string, unknown> = {}): void {
  const fraction = progress.framesTotal > 0 ? progress.framesDone / progress.framesTotal : undefined;
  const prefix = 'row' in fields ? `row ${fields.row}: ` : '';
  const frames = frameCounts(progress.framesDone, progress.framesTotal);
  const label = `${prefix}${progress.stage}${fraction === undefined ? '' : ` ${Math.floor(fraction * 100)}%`}${frames.text}`;
  out.progress(progress.stage, label, progress.stage === 'capturing' ? fraction : undefined, fields, frames.counts);
}
