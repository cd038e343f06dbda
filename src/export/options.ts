/** The options `exportVideo` and `captureFrame` take, checked before anything loads. */
import { CAPTURE_RASTERISERS, type CaptureRasteriserChoice } from '../runtime/capture-codes.js';
import { FxError } from '../runtime/errors.js';
import {
  ASPECT_RATIOS,
  MAX_FPS,
  MIN_FPS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  type AspectRatio,
  type RenderQuality,
  type RenderResolution,
} from '../wire/render-values.js';
import { ExportErrorCode } from './codes.js';
import { EXPORT_FORMATS, STILL_TYPES, type ExportFormat, type StillType } from './formats.js';

/** As the service's render defaults, where an export option means the same. */
export const EXPORT_DEFAULTS = { format: 'mp4', fps: 30, quality: 'standard', rasteriser: 'auto' } as const;

const RASTERISER_CHOICES: readonly CaptureRasteriserChoice[] = ['auto', ...CAPTURE_RASTERISERS];

const refuse = (option: string, value: unknown, expected: string) =>
  new FxError(ExportErrorCode.optionInvalid, `"${option}" must be ${expected}, got ${describe(value)}`);
const describe = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value));
const oneOf = (list: readonly string[]) => list.map((item) => JSON.stringify(item)).join(', ');

function pick<T extends string>(option: string, value: unknown, list: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!list.includes(value as T)) throw refuse(option, value, `one of ${oneOf(list)}`);
  return value as T;
}

export function checkFormat(value: unknown): ExportFormat {
  return pick('format', value, EXPORT_FORMATS, EXPORT_DEFAULTS.format);
}

export function checkFps(value: unknown): number {
  if (value === undefined) return EXPORT_DEFAULTS.fps;
  if (!Number.isInteger(value) || (value as number) < MIN_FPS || (value as number) > MAX_FPS)
    throw refuse('fps', value, `an integer from ${MIN_FPS} to ${MAX_FPS}`);
  return value as number;
}

export function checkQuality(value: unknown): RenderQuality {
  return pick('quality', value, RENDER_QUALITIES, EXPORT_DEFAULTS.quality);
}

/** `resolution` and `aspectRatio` as `cloudRender` takes them: a preset size (both optional: the composition's own). */
export function checkOutputSize(resolution: unknown, aspectRatio: unknown) {
  return {
    resolution:
      resolution === undefined
        ? undefined
        : pick<RenderResolution>('resolution', resolution, RENDER_RESOLUTIONS, '1080p'),
    aspectRatio:
      aspectRatio === undefined ? undefined : pick<AspectRatio>('aspectRatio', aspectRatio, ASPECT_RATIOS, '16:9'),
  };
}

export function checkRasteriser(value: unknown): CaptureRasteriserChoice {
  return pick('rasteriser', value, RASTERISER_CHOICES, EXPORT_DEFAULTS.rasteriser);
}

export function checkStillType(value: unknown): StillType {
  return pick('type', value, STILL_TYPES, 'image/png');
}

/** A time of the composition: finite, within [0, duration]. */
export function checkTime(value: unknown, duration: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > duration)
    throw refuse('time', value, `a number of seconds from 0 to the composition's duration, ${duration}`);
  return value;
}
