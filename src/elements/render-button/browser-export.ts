/**
 * The button's renders in the page (`mode="browser"`, and `auto` where it can): `exportVideo` of the composition
 * with the button's format, fps, quality and resolution. What only the service does (stills, GIF, mov, 4k, ranges, metadata)
 * is refused in `browser` mode and goes to the service in `auto` mode.
 */
import { ExportErrorCode } from '../../export/codes.js';
import { exportVideo, type ExportVideoResult } from '../../export/export-video.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../export/formats.js';
import type { ExportProgress } from '../../export/progress.js';
import { FxError, isFxError } from '../../runtime/errors.js';
import type { FxComposition } from '../composition/fx-composition.js';
import { FxRenderButtonAttribute, FxRenderButtonErrorCode } from './constants.js';
import type { ButtonSettings } from './render-options.js';

/** Why the button's settings cannot be exported in the page; `undefined` when they can. */
export function browserExportProblem(settings: ButtonSettings): string | undefined {
  if (!EXPORT_FORMATS.includes(settings.format as ExportFormat))
    return `format "${settings.format}" is rendered by the service only (in the browser: ${EXPORT_FORMATS.join(', ')})`;
  // exportVideo can (where the encoder takes 3840×2160), but a button's 4k goes to the service: hours on a laptop.
  if (settings.resolution === '4k') return 'resolution 4k is rendered by the service only';
  const onlyCloud = (
    [
      [FxRenderButtonAttribute.range, settings.range],
      [FxRenderButtonAttribute.thumbnailTime, settings.thumbnailTime],
      [FxRenderButtonAttribute.metadata, settings.metadata],
    ] as const
  ).find(([, value]) => value !== undefined);
  return onlyCloud && `"${onlyCloud[0]}" is for the service's renders only`;
}

/** Can this browser export at all (known at once, so `auto` decides inside the click)? */
export const canExportHere = () => typeof VideoEncoder !== 'undefined' && typeof OffscreenCanvas !== 'undefined';

/** Exports in the page; settings the page cannot export are `render_button_attribute_invalid`. */
export function exportInPage(
  composition: FxComposition,
  settings: ButtonSettings,
  signal: AbortSignal,
  onProgress: (progress: ExportProgress) => void,
): Promise<ExportVideoResult> {
  const problem = browserExportProblem(settings);
  if (problem) throw new FxError(FxRenderButtonErrorCode.attributeInvalid, `mode="browser": ${problem}`);
  return exportVideo(composition, {
    format: settings.format as ExportFormat,
    quality: settings.quality,
    ...(settings.fps === undefined ? {} : { fps: settings.fps }),
    ...(settings.resolution === undefined ? {} : { resolution: settings.resolution }),
    signal,
    onProgress,
  });
}

/** An export refusal after which `auto` renders on the service instead. */
export const fallsBackToCloud = (error: unknown) =>
  isFxError(error, ExportErrorCode.captureRefused) || isFxError(error, ExportErrorCode.unsupported);
