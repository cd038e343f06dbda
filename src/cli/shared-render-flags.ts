/**
 * The flags `fx render` and `fx cloud render` share, defined once: what to render, how, with which values, and
 * per batch row. Each command adds its own (local: `--workers`, `--resume`; cloud: `--asset-id`, `--no-wait`, …)
 * and says what differs (default output, what `--resolution` defaults to, batch concurrency bound).
 */
import {
  ASPECT_RATIOS,
  MAX_FPS,
  MIN_FPS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  RenderDefaults,
  type AspectRatio,
  type RenderRequest,
} from '../wire/render-request.js';
import { choiceFlag, integerFlag, type ParsedArgs } from './args.js';
import type { Flags } from './command.js';
import { VARIABLE_FLAGS } from './variables.js';

/** `--aspect-ratio auto`: from the entry's size (what no flag means too). */
export const AUTO = 'auto';

export interface SharedFlagsOf {
  /** After "where the video goes": the default `--output` and the placeholders it may hold. */
  readonly output: string;
  /** What `--resolution` is when not given. */
  readonly resolutionDefault: string;
  /** What `--aspect-ratio auto` (or none) means. */
  readonly aspectDefault: string;
  readonly maxBatchConcurrency: number;
}

export function sharedRenderFlags(of: SharedFlagsOf): Flags {
  return {
    composition: {
      type: 'string',
      short: 'c',
      value: '<file>',
      description: `entry HTML file in the project (default ${RenderDefaults.composition})`,
    },
    output: {
      type: 'string',
      short: 'o',
      value: '<path>',
      description: `where the video goes (${of.output})`,
    },
    fps: {
      type: 'string',
      value: '<n>',
      description: `frames per second, ${MIN_FPS}–${MAX_FPS} (default ${RenderDefaults.fps})`,
    },
    quality: {
      type: 'string',
      value: '<q>',
      description: `${RENDER_QUALITIES.join('|')} (default ${RenderDefaults.quality})`,
    },
    format: {
      type: 'string',
      value: '<f>',
      description: `${RENDER_FORMATS.join('|')} (default ${RenderDefaults.format}; webm and mov keep alpha)`,
    },
    resolution: {
      type: 'string',
      value: '<r>',
      description: `${RENDER_RESOLUTIONS.join('|')} (default: ${of.resolutionDefault}; 4k is mp4 only)`,
    },
    'aspect-ratio': {
      type: 'string',
      value: '<a>',
      description: `${ASPECT_RATIOS.join('|')}|${AUTO} (default ${AUTO}: ${of.aspectDefault})`,
    },
    ...VARIABLE_FLAGS,
    batch: {
      type: 'string',
      value: '<rows.json|rows.csv>',
      description: 'one render per row, each merged over the variables',
    },
    'batch-concurrency': {
      type: 'string',
      value: '<n>',
      description: `rows rendered at once, 1–${of.maxBatchConcurrency} (default 1)`,
    },
  };
}

/** The settings the shared flags set, checked for their form; absent flags are left out. */
export function sharedRenderSettings(values: ParsedArgs['values']): Pick<
  RenderRequest,
  'fps' | 'quality' | 'format' | 'resolution'
> & {
  aspectRatio?: AspectRatio;
} {
  const aspect = choiceFlag('aspect-ratio', values['aspect-ratio'], [...ASPECT_RATIOS, AUTO]);
  const settings = {
    fps: integerFlag('fps', values.fps, MIN_FPS, MAX_FPS),
    quality: choiceFlag('quality', values.quality, RENDER_QUALITIES),
    format: choiceFlag('format', values.format, RENDER_FORMATS),
    resolution: choiceFlag('resolution', values.resolution, RENDER_RESOLUTIONS),
    aspectRatio: aspect === AUTO ? undefined : aspect,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** `--batch-concurrency`, 1 when absent. */
export const batchConcurrency = (values: ParsedArgs['values'], max: number) =>
  integerFlag('batch-concurrency', values['batch-concurrency'], 1, max) ?? 1;
