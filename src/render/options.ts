import { RENDER_LIMITS } from '../runtime/render-limits.js';
import { availableParallelism } from 'node:os';
import { detectAspectRatio } from '../wire/aspect-ratio.js';
import {
  ALPHA_FORMATS,
  ASPECT_RATIOS,
  MAX_FPS,
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
} from './types.js';

// The option lists are the wire's: the renderer renders what the service accepts. (Alpha formats are captured as
// PNG on a transparent background.)
export { ALPHA_FORMATS, ASPECT_RATIOS, MAX_FPS, RENDER_FORMATS, RENDER_QUALITIES, RENDER_RESOLUTIONS };
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

/** Output sizes of the 1080p preset; 4k doubles them. */
const SIZES_1080P: Record<AspectRatio, { width: number; height: number }> = {
  '16:9': { width: 1920, height: 1080 },
  '9:16': { width: 1080, height: 1920 },
  '1:1': { width: 1080, height: 1080 },
};

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
}

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

function positiveNumber(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw invalid(`"${name}" must be a number above 0 and at most ${max}, got ${quoted(value)}`);
  }
  return value;
}

/**
 * Checks every option before any work starts (no browser, no file written), so a bad request fails fast and
 * with the parameter named. 4k with an alpha format is refused here.
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
  const concurrency =
    options.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : integer('concurrency', options.concurrency, 1, MAX_CONCURRENCY);
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
  if (resolution === '4k' && ALPHA_FORMATS.has(format)) {
    throw renderError(
      RenderErrorCode.resolutionFormatUnsupported,
      `"resolution" 4k is not available with "format" ${format}: 4k runs through a path without alpha; use mp4 for 4k, or render ${format} at 1080p`,
    );
  }
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
  };
}

const even = (value: number) => 2 * Math.ceil(value / 2);

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
  if (checked.resolution === undefined && checked.aspectRatio === undefined) {
    return { width: even(viewport.width), height: even(viewport.height), viewport, scale: 1 };
  }
  const preset = SIZES_1080P[checked.aspectRatio ?? detectAspectRatio(viewport.width, viewport.height)];
  const factor = checked.resolution === '4k' ? 2 : 1;
  const width = preset.width * factor;
  const height = preset.height * factor;
  return { width, height, viewport, scale: Math.min(width / viewport.width, height / viewport.height) };
}
