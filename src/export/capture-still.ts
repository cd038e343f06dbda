/** `captureFrame`: one frame of the composition as an image, drawn by the frame itself, as `exportVideo` draws it. */
import type { CaptureRasteriserChoice } from '../runtime/capture-codes.js';
import { FxError } from '../runtime/errors.js';
import { frameIndex } from '../wire/frame-grid.js';
import type { AspectRatio, RenderResolution } from '../wire/render-values.js';
import { captureFrames, openCaptureSession } from './capture-session.js';
import { ExportErrorCode } from './codes.js';
import type { StillType } from './formats.js';
import { checkFps, checkOutputSize, checkRasteriser, checkStillType, checkTime, EXPORT_DEFAULTS } from './options.js';

export interface CaptureFrameOptions {
  /** `image/png` (default, alpha kept), `image/jpeg` or `image/webp` (alpha kept). */
  readonly type?: StillType;
  /** 0–1, for `image/jpeg` and `image/webp`. */
  readonly quality?: number;
  /** The frame grid `time` snaps to. Default 30. */
  readonly fps?: number;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly rasteriser?: CaptureRasteriserChoice;
  /** As `exportVideo`'s: a preset size (the composition letterboxed into it); default the composition's own. */
  readonly resolution?: RenderResolution;
  readonly aspectRatio?: AspectRatio;
  readonly signal?: AbortSignal;
}

/** The composition at `time` (seconds, snapped to the nearest frame of the grid) as an image Blob. */
export async function captureFrame(embed: unknown, time: number, options: CaptureFrameOptions = {}): Promise<Blob> {
  const type = checkStillType(options.type);
  const fps = checkFps(options.fps ?? EXPORT_DEFAULTS.fps);
  const rasteriser = checkRasteriser(options.rasteriser);
  const size = checkOutputSize(options.resolution, options.aspectRatio);
  if (options.quality !== undefined && !(options.quality >= 0 && options.quality <= 1))
    throw new FxError(ExportErrorCode.optionInvalid, `"quality" must be a number from 0 to 1, got ${options.quality}`);
  const session = await openCaptureSession(embed, {
    variables: options.variables,
    fps,
    rasteriser,
    // JPEG has no alpha: what the composition leaves unpainted is the backdrop, as in the renderer's stills.
    transparent: type !== 'image/jpeg',
    size,
    signal: options.signal,
  });
  try {
    const at = frameIndex(checkTime(time, session.frame.duration), fps) / fps;
    let still: Blob | undefined;
    await captureFrames(
      session,
      [at],
      async (picture) => {
        // No `encode` was asked for: the frame sends the picture itself.
        if (!picture) return;
        const canvas = new OffscreenCanvas(picture.width, picture.height);
        canvas.getContext('2d')!.putImageData(picture, 0, 0);
        still = await canvas.convertToBlob({
          type,
          ...(options.quality === undefined ? {} : { quality: options.quality }),
        });
      },
      options.signal,
    );
    if (!still) throw new FxError(ExportErrorCode.captureFailed, 'the export frame sent no picture for the still');
    return still;
  } finally {
    session.frame.dispose();
  }
}
