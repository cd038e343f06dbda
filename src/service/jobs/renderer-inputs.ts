import type { RenderOptions } from '../../render/types.js';
import type { ServiceContext } from '../context.js';
import type { RenderRow } from '../renders/render-types.js';

/** What every renderer call of a render gets (a whole render, or a chunk of it). */
export function renderInputs(
  { config }: ServiceContext,
  render: RenderRow,
  projectDir: string,
): Omit<RenderOptions, 'outputPath'> {
  return {
    ...config.renderOptions,
    projectDir,
    composition: render.request.composition,
    fps: render.request.fps,
    quality: render.request.quality,
    format: render.request.format,
    resolution: render.request.resolution,
    aspectRatio: render.request.aspect_ratio,
    variables: render.request.variables,
    ...outputChoices(render.request),
    allowCompositionReadsUnder: pageFolders(render.request),
    allowMissingFiles: render.request.allow_missing_files === true,
    maxDurationSeconds: config.limits.maxDurationSeconds,
    maxFrames: config.limits.maxFrames,
    unsafeAllowPrivateNetwork: config.allowPrivateNetworkUrls,
  };
}

/**
 * A `url` render's page may have the compiler read its own folder on the origin (where its `<base href>` points),
 * as it would in `<fx-composition src>`; records from before `page_url` existed fall back to the submitted URL.
 */
function pageFolders(request: RenderRow['request']): string[] {
  const page = request.page_url ?? request.url;
  return page ? [new URL('./', page).href] : [];
}

/** The frames and GIF options the request chose; left out where it did not, for the renderer's own defaults. */
function outputChoices(
  request: RenderRow['request'],
): Pick<RenderOptions, 'time' | 'thumbnailTime' | 'range' | 'loop'> {
  return {
    // Records from before these fields existed have none of them (render-store.ts fills in null).
    ...(request.time == null ? {} : { time: request.time }),
    ...(request.thumbnail_time == null ? {} : { thumbnailTime: request.thumbnail_time }),
    ...(request.range == null ? {} : { range: request.range }),
    ...(request.loop == null ? {} : { loop: request.loop }),
  };
}
