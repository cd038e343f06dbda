import { RENDER_LIMITS } from '../runtime/render-limits.js';
import { availableParallelism } from 'node:os';
import { detectAspectRatio } from '../wire/aspect-ratio.js';
import { outputSize } from '../wire/output-size.js';
import { frameIndex } from '../wire/frame-grid.js';
import {
  ALPHA_FORMATS,
  ASPECT_RATIOS,
  FORMAT_ONLY_FIELDS,
  FOUR_K_FORMATS,
  GIF_FPS,
  isStillFormat,
  MAX_FPS,
  MAX_SECONDS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
} from '../wire/render-request.js';
import { RenderErrorCode, renderError } from './errors.js';
import type {
  AspectRatio,
  CaptureMode,
  RenderFormat,
  RenderOptions,
  RenderQuality,
  RenderResolution,
  TimeRange,
} from './types.js';

// The option lists are the wire's: the renderer renders what the service accepts. (Alpha formats are captured as
// PNG on a transparent background.)
export {
  ALPHA_FORMATS,
  ASPECT_RATIOS,
  FOUR_K_FORMATS,
  GIF_FPS,
  MAX_FPS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
};
export { detectAspectRatio };

export const CAPTURE_MODES: readonly CaptureMode[] = ['auto', 'begin-frame', 'screenshot'];
export const MAX_CONCURRENCY = 8;
/**
 * Capture workers by default: two where there are two cores or more. On the 2-core reference machine two
 * BeginFrame workers render the 1080p reference composition about 25 % faster than one (one worker leaves a core
 * idle while its page paints; see src/render/README.md). More cores were not measured, so the default stays at 2.
 */
export const DEFAULT_CONCURRENCY = Math.max(1, Math.min(2, availableParallelism()));
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 3_600_000;
/** Limits on the work one render may ask for; see `maxDurationSeconds` and `maxFrames`. */
export const DEFAULT_MAX_DURATION_SECONDS = RENDER_LIMITS.maxDurationSeconds;
export const DEFAULT_MAX_FRAMES = RENDER_LIMITS.maxFrames;
const LONGEST_ALLOWED_SECONDS = 86_400;

/** The options after validation, with defaults filled in. */
export interface CheckedOptions {
  readonly fps: number;
  readonly quality: RenderQuality;
  readonly format: RenderFormat;
  readonly resolution: RenderResolution | undefined;
  readonly aspectRatio: AspectRatio | undefined;
  readonly variables: Record<string, unknown>;
  readonly concurrency: number;
  readonly capture: CaptureMode;
  readonly timeoutMs: number;
  readonly maxDurationSeconds: number;
  readonly maxFrames: number;
  readonly unsafeAllowPrivateNetwork: boolean;
  readonly allowCompositionReadsUnder: readonly string[];
  readonly allowMissingFiles: boolean;
  /** Stills only. */
  readonly time: number | undefined;
  /** Videos and GIF only. */
  readonly thumbnailTime: number | undefined;
  readonly range: TimeRange | undefined;
  /** GIF: true (forever) unless `loop: false`; undefined for the other formats. */
  readonly loop: boolean | undefined;
}

/** The renderer's names of the wire's format-only fields. */
const OPTION_NAMES = { time: 'time', thumbnail_time: 'thumbnailTime', range: 'range', loop: 'loop' } as const;

const invalid = (message: string) => renderError(RenderErrorCode.optionInvalid, message);
const isHttpUrl = (value: unknown) =>
  typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const quoted = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

function oneOf<T>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    throw invalid(`"${name}" must be one of ${allowed.join(', ')}, got ${quoted(value)}`);
  return value as T;
}

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`"${name}" must be an integer from ${min} to ${max}, got ${quoted(value)}`);
  }
  return value;
}

function seconds(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_SECONDS) {
    throw invalid(`"${name}" must be a number of seconds from 0 to ${MAX_SECONDS}, got ${quoted(value)}`);
  }
  return value;
}

function timeRange(value: unknown, fps: number): TimeRange | undefined {
  if (value === undefined) return undefined;
  const { start, end, ...rest } = (typeof value === 'object' && value !== null ? value : {}) as Partial<TimeRange>;
  const valid = (part: unknown) =>
    typeof part === 'number' && Number.isFinite(part) && part >= 0 && part <= MAX_SECONDS;
  if (typeof value !== 'object' || value === null || !valid(start) || !valid(end) || Object.keys(rest).length > 0) {
    throw invalid(`"range" must be { start, end } of seconds from 0 to ${MAX_SECONDS}, got ${quoted(value)}`);
  }
  if (frameIndex(end!, fps) <= frameIndex(start!, fps)) {
    throw invalid(`"range" must hold at least one frame at ${fps} fps, got start ${start} s and end ${end} s`);
  }
  return { start: start!, end: end! };
}

/** Refuses a field given for a format it does not apply to (the wire's `FORMAT_ONLY_FIELDS`). */
function refuseOtherFormatFields(options: RenderOptions, format: RenderFormat): void {
  for (const [field, formats] of Object.entries(FORMAT_ONLY_FIELDS)) {
    const name = OPTION_NAMES[field as keyof typeof OPTION_NAMES];
    if (options[name] !== undefined && !formats.includes(format)) {
      throw invalid(`"${name}" applies to "format" ${formats.join(', ')}, not ${format}`);
    }
  }
}

function positiveNumber(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw invalid(`"${name}" must be a number above 0 and at most ${max}, got ${quoted(value)}`);
  }
  return value;
}

/**
 * Checks every option before any work starts (no browser, no file written), so a bad request fails fast and
 * with the parameter named. 4k outside `FOUR_K_FORMATS`, a GIF over `GIF_FPS.max` and a field of another format
 * (`time` for a video, `loop` for a still, …) are refused here.
 */
export function checkOptions(options: RenderOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null)
    throw invalid(`render options must be an object, got ${quoted(options)}`);
  for (const name of ['projectDir', 'composition', 'outputPath'] as const) {
    if (typeof options[name] !== 'string' || options[name].trim() === '')
      throw invalid(`"${name}" must be a non-empty string, got ${quoted(options[name])}`);
  }
  const fps = integer('fps', options.fps, 1, MAX_FPS);
  const quality = oneOf('quality', options.quality, RENDER_QUALITIES);
  const format = oneOf('format', options.format, RENDER_FORMATS);
  const resolution =
    options.resolution == null ? undefined : oneOf('resolution', options.resolution, RENDER_RESOLUTIONS);
  const aspectRatio =
    options.aspectRatio == null ? undefined : oneOf('aspectRatio', options.aspectRatio, ASPECT_RATIOS);
  const variables = options.variables ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    throw invalid(`"variables" must be an object of values, got ${quoted(variables)}`);
  }
  const asked =
    options.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : integer('concurrency', options.concurrency, 1, MAX_CONCURRENCY);
  // A still is one frame: a second browser would only be started to be closed.
  const concurrency = isStillFormat(format) ? 1 : asked;
  const capture = options.capture === undefined ? 'auto' : oneOf('capture', options.capture, CAPTURE_MODES);
  const timeoutMs =
    options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : integer('timeoutMs', options.timeoutMs, 1, MAX_TIMEOUT_MS);
  const maxDurationSeconds =
    options.maxDurationSeconds === undefined
      ? DEFAULT_MAX_DURATION_SECONDS
      : positiveNumber('maxDurationSeconds', options.maxDurationSeconds, LONGEST_ALLOWED_SECONDS);
  const maxFrames =
    options.maxFrames === undefined
      ? DEFAULT_MAX_FRAMES
      : integer('maxFrames', options.maxFrames, 1, LONGEST_ALLOWED_SECONDS * MAX_FPS);
  const unsafeAllowPrivateNetwork = options.unsafeAllowPrivateNetwork ?? false;
  if (typeof unsafeAllowPrivateNetwork !== 'boolean')
    throw invalid(`"unsafeAllowPrivateNetwork" must be true or false, got ${quoted(unsafeAllowPrivateNetwork)}`);
  const allowMissingFiles = options.allowMissingFiles ?? false;
  if (typeof allowMissingFiles !== 'boolean')
    throw invalid(`"allowMissingFiles" must be true or false, got ${quoted(allowMissingFiles)}`);
  if (resolution === '4k' && !FOUR_K_FORMATS.has(format)) {
    const why =
      format === 'gif' ? 'a 4k GIF would weigh hundreds of megabytes' : '4k runs through a path without alpha';
    throw renderError(
      RenderErrorCode.resolutionFormatUnsupported,
      `"resolution" 4k is not available with "format" ${format}: ${why}; use ${[...FOUR_K_FORMATS].join(' or ')} for 4k, or render ${format} at 1080p`,
    );
  }
  if (format === 'gif' && fps > GIF_FPS.max) {
    throw invalid(
      `"fps" of a GIF must be at most ${GIF_FPS.max}, got ${fps}: GIF players show no more (default ${GIF_FPS.default})`,
    );
  }
  const time = seconds('time', options.time);
  const thumbnailTime = seconds('thumbnailTime', options.thumbnailTime);
  const range = timeRange(options.range, fps);
  if (options.loop !== undefined && typeof options.loop !== 'boolean')
    throw invalid(`"loop" must be true or false, got ${quoted(options.loop)}`);
  refuseOtherFormatFields(options, format);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    throw invalid(`"onProgress" must be a function, got ${quoted(options.onProgress)}`);
  const allowCompositionReadsUnder = options.allowCompositionReadsUnder ?? [];
  if (!Array.isArray(allowCompositionReadsUnder) || !allowCompositionReadsUnder.every(isHttpUrl)) {
    throw invalid(
      `"allowCompositionReadsUnder" must be a list of http(s) folder URLs, got ${quoted(allowCompositionReadsUnder)}`,
    );
  }
  return {
    fps,
    quality,
    format,
    resolution,
    aspectRatio,
    variables,
    concurrency,
    capture,
    timeoutMs,
    maxDurationSeconds,
    maxFrames,
    unsafeAllowPrivateNetwork,
    allowCompositionReadsUnder,
    allowMissingFiles,
    time,
    thumbnailTime,
    range,
    loop: format === 'gif' ? (options.loop ?? true) : undefined,
  };
}

export interface Geometry {
  /** Output video size. */
  readonly width: number;
  readonly height: number;
  /** Composition size in CSS pixels: the capture viewport. */
  readonly viewport: { readonly width: number; readonly height: number };
  /** Device pixels per CSS pixel: the composition fits inside the output, letterboxed when shapes differ. */
  readonly scale: number;
}

/** The output size and how the composition is scaled into it. */
export function outputGeometry(
  composition: { width: number; height: number },
  checked: Pick<CheckedOptions, 'resolution' | 'aspectRatio'>,
): Geometry {
  const viewport = { width: Math.round(composition.width), height: Math.round(composition.height) };
  const { width, height } = outputSize(viewport, checked);
  const scale =
    checked.resolution === undefined && checked.aspectRatio === undefined
      ? 1
      : Math.min(width / viewport.width, height / viewport.height);
  return { width, height, viewport, scale };
}
