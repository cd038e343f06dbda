/**
 * `exportVideo`: "render this" in the browser, with no service. The embed opens a frame of its own that captures
 * itself frame by frame with the renderer's clock; WebCodecs encodes and mediabunny muxes (./encode). Nothing
 * leaves the page.
 */
import type { CaptureRasteriser, CaptureRasteriserChoice } from '../runtime/capture-codes.js';
import { FxError, isFxError } from '../runtime/errors.js';
import { loadVideoOutput } from './load-encoder.js';
import { frameCount } from '../wire/frame-grid.js';
import type { AspectRatio, RenderQuality, RenderResolution } from '../wire/render-values.js';
import type { Issue } from '../runtime/issues.js';
import { mixAudio } from './audio-mix.js';
import { abortedError, captureFrames, flushFrameEncoder, openCaptureSession } from './capture-session.js';
import type { VideoCodecChoice } from './encode/codec-choice.js';
import { ExportErrorCode } from './codes.js';
import type { ExportFormat } from './formats.js';
import { checkFormat, checkFps, checkOutputSize, checkQuality, checkRasteriser } from './options.js';
import { exportProgress, type ExportProgress } from './progress.js';

export interface ExportVideoOptions {
  /** `mp4` (H.264) or `webm` (VP9, transparency kept). Default `mp4`. */
  readonly format?: ExportFormat;
  /** Frames per second, 1–240. Default 30. */
  readonly fps?: number;
  /** `draft`, `standard` (default) or `high`: the encoder's bitrate. */
  readonly quality?: RenderQuality;
  /**
   * `1080p` or `4k`: a preset size, as `cloudRender`'s (the composition fits inside it, letterboxed). Default: the
   * composition's own size, or 1080p with `aspectRatio`.
   */
  readonly resolution?: RenderResolution;
  /** `16:9`, `9:16` or `1:1` (with or without `resolution`). Default: the preset shape nearest the composition's. */
  readonly aspectRatio?: AspectRatio;
  /** Overrides. Default: the embed's current `variables`. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** How the frame draws itself: `auto` (default: HTML-in-Canvas where the browser has it), or one of the two. */
  readonly rasteriser?: CaptureRasteriserChoice;
  /** Where the file is written as it is made (`showSaveFilePicker`'s stream): memory stays bounded. Else a Blob. */
  readonly target?: FileSystemWritableFileStream;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExportProgress) => void;
}

export interface ExportVideoResult {
  /** The file; `undefined` when written to `target`. */
  readonly video: Blob | undefined;
  readonly format: ExportFormat;
  /** The codec string the encoder used (`avc1.…`, `vp09.…`). */
  readonly codec: string;
  readonly rasteriser: CaptureRasteriser;
  /**
   * Where the pictures were encoded: in the export frame (its own process where the browser isolates sandboxed
   * frames, so the page's main thread only muxes), or in the page, where the frame's encoder would not take the
   * configuration.
   */
  readonly encodedIn: 'frame' | 'page';
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frames: number;
  /** Seconds: frames ÷ fps. */
  readonly duration: number;
  /** The file has a sound track (the composition has sound the export could read). */
  readonly audio: boolean;
  /** What was left out, e.g. a sound whose file the page could not read (`export_audio_source_unavailable`). */
  readonly warnings: readonly Issue[];
}

/**
 * Exports `embed` (an `<fx-composition>` that loaded its composition) as a video file, frame-exact: frame i is the
 * composition at i ÷ fps, as the server renderer takes it. Rejects with an `FxError` of `ExportErrorCode` (or the
 * compiler's code of a composition that does not compile); on abort nothing is kept.
 */
export async function exportVideo(embed: unknown, options: ExportVideoOptions = {}): Promise<ExportVideoResult> {
  const format = checkFormat(options.format);
  const fps = checkFps(options.fps);
  const quality = checkQuality(options.quality);
  const rasteriser = checkRasteriser(options.rasteriser);
  const size = checkOutputSize(options.resolution, options.aspectRatio);
  const { signal, onProgress } = options;
  if (typeof VideoEncoder === 'undefined')
    throw new FxError(ExportErrorCode.unsupported, 'this browser has no WebCodecs VideoEncoder: export needs one');
  onProgress?.(exportProgress(0, undefined));
  const encoder = await loadVideoOutput();
  const alpha = format === 'webm';
  let video: VideoCodecChoice | undefined;
  const session = await openCaptureSession(embed, {
    variables: options.variables,
    fps,
    rasteriser,
    transparent: alpha,
    size,
    // The codec is chosen for the size found; the frame encodes with it where it can (src/runtime/capture-encoding.ts).
    encode: async ({ width, height }) => {
      video = await encoder.chooseVideoCodec({ format, width, height, fps, quality, alpha });
      return encoder.captureEncoding(video, { fps, alpha });
    },
    signal,
  });
  const { frame, width, height, encoding } = session;
  try {
    const frames = frameCount(frame.duration, fps);
    const sound = await mixAudio(session.audio, session.files, frames / fps);
    if (signal?.aborted) throw abortedError(signal);
    const output = await encoder.openVideoOutput({
      format,
      width,
      height,
      fps,
      quality,
      alpha,
      ...(video ? { video } : {}),
      ...(encoding ? { encoded: true, frames } : {}),
      ...(sound.buffer ? { audio: sound.buffer } : {}),
      ...(options.target ? { target: options.target } : {}),
    });
    // The frame's chunks, muxed in the order they come; the first failure ends the export at the next frame.
    let muxing: Promise<void> = Promise.resolve();
    let muxFailure: unknown;
    frame.onChunk = (chunk) => {
      muxing = muxing.then(() => output.addChunk(chunk)).catch((error: unknown) => void (muxFailure ??= error));
    };
    try {
      const times = Array.from({ length: frames }, (_, index) => index / fps);
      onProgress?.(exportProgress(0, frames));
      await captureFrames(
        session,
        times,
        async (picture, index) => {
          if (muxFailure) throw muxFailure;
          if (picture) await output.add(picture, index);
          onProgress?.(exportProgress(index + 1, frames));
        },
        signal,
      );
      if (encoding) {
        await flushFrameEncoder(session);
        await muxing;
        if (muxFailure) throw muxFailure;
      }
      if (signal?.aborted) throw abortedError(signal);
      const file = await output.finish();
      return {
        video: file,
        format,
        codec: output.codec,
        rasteriser: session.rasteriser,
        encodedIn: encoding ? 'frame' : 'page',
        width,
        height,
        fps,
        frames,
        duration: frames / fps,
        audio: sound.buffer !== undefined,
        warnings: sound.issues,
      };
    } catch (error) {
      await output.cancel().catch(() => {});
      throw signal?.aborted && !isFxError(error, ExportErrorCode.aborted) ? abortedError(signal) : error;
    }
  } finally {
    frame.dispose();
  }
}
