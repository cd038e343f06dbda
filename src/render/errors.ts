import { FxError } from '../runtime/errors.js';
import { MetadataIssueCode } from '../runtime/root-metadata.js';
import { ErrorCode } from '../wire/constants.js';

/**
 * Codes of render failures, said once. Compile failures keep the compiler's own codes (`composition_not_found`,
 * `composition_empty`, `composition_invalid`, `composition_too_large`, see `CompileIssueCode`).
 */
export const RenderErrorCode = {
  /** An option is out of range or of the wrong kind; the message names it. */
  optionInvalid: 'render_option_invalid',
  /** 4k with a format not rendered at 4k (`FOUR_K_FORMATS`: mp4 and jpeg): 4k runs through a path without alpha. */
  resolutionFormatUnsupported: 'resolution_format_unsupported',
  /** A still's `time`, or the `thumbnailTime`, falls outside the frames the render outputs (the wire's code). */
  timeOutsideDuration: ErrorCode.timeOutsideDuration,
  /** The `range` ends past the composition's end (the wire's code). */
  rangeOutsideDuration: ErrorCode.rangeOutsideDuration,
  /** `projectDir` is not a directory. */
  projectNotFound: 'project_not_found',
  /** `composition` names a path outside the project. */
  compositionPathRefused: 'composition_path_refused',
  /**
   * The entry has no positive root `data-duration` and no registered timeline to take it from: the code the
   * compiler, lint and the preview report.
   */
  durationMissing: MetadataIssueCode.durationMissing,
  /** The timeline a root without `data-duration` registered is empty, repeats forever or is too long (as in the preview). */
  timelineDurationInvalid: MetadataIssueCode.timelineDurationInvalid,
  /** The composition is longer than `maxDurationSeconds`, or has more frames than `maxFrames`. */
  durationTooLong: 'composition_duration_too_long',
  /** `dist/fx.iife.js` or `dist/fx-runtime.js` is missing: the bundles were not built. */
  bundleMissing: 'runtime_bundle_missing',
  browserNotFound: 'browser_not_found',
  /** The browser or the page crashed, or the browser could not start. */
  browserCrashed: 'browser_crashed',
  /** A script of the composition threw while compiling or loading in the browser, or the runtime never got ready. */
  compositionLoadFailed: 'composition_load_failed',
  /** The browser answered a frame request without an image, several times over. */
  frameCaptureFailed: 'frame_capture_failed',
  ffmpegNotFound: 'ffmpeg_not_found',
  /** FFmpeg exited non-zero; the message ends with the tail of its stderr. */
  ffmpegFailed: 'ffmpeg_failed',
  /** A stage took longer than its time limit. */
  timeout: 'render_timeout',
  /** Anything else that went wrong (a bug, an I/O error); the message says what. */
  failed: 'render_failed',
  /** The caller's `signal` aborted the render; partial output was removed. */
  aborted: 'render_aborted',
  /** `planChunks` got a frame count, worker count or option out of range; the message names it. */
  chunkPlanInvalid: 'chunk_plan_invalid',
  /** Chunk ranges that do not tile the composition's frames: none, empty, overlapping, gapped or out of range. */
  chunkRangesInvalid: 'chunk_ranges_invalid',
  /** Chunk files that cannot be joined without re-encoding: other codec, size, rate, format or frame count. */
  chunkFilesMismatched: 'chunk_files_mismatched',
} as const;
export type RenderErrorCode = (typeof RenderErrorCode)[keyof typeof RenderErrorCode];

export function renderError(code: RenderErrorCode, message: string, cause?: unknown): FxError<RenderErrorCode> {
  return new FxError(code, message, cause === undefined ? {} : { cause });
}

/** The error a render rejects with once `signal` aborted, whatever failed on the way down. */
export function abortedError(signal: AbortSignal): FxError<RenderErrorCode> {
  return renderError(RenderErrorCode.aborted, 'the render was aborted', signal.reason);
}
