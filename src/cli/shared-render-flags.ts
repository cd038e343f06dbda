/**
 * The flags `fx render` and `fx cloud render` share, defined once: what to render, how, with which values, and
 * per batch row. Each command adds its own (local: `--workers`, `--resume`; cloud: `--asset-id`, `--no-wait`, …)
 * and says what differs (default output, what `--resolution` defaults to, batch concurrency bound).
 */
import {
  ALPHA_FORMATS,
  ASPECT_RATIOS,
  FORMAT_ONLY_FIELDS,
  FOUR_K_FORMATS,
  GIF_FPS,
  MAX_FPS,
  MAX_SECONDS,
  MIN_FPS,
  RENDER_FORMATS,
  STILL_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  RenderDefaults,
  type AspectRatio,
  type RenderFormat,
  type RenderRequest,
  type RenderRequestField,
  type TimeRange,
} from '../wire/render-request.js';
import { choiceFlag, integerFlag, type ParsedArgs } from './args.js';
import { cliError, CliErrorCode } from './errors.js';
import type { Flags } from './command.js';
import { VARIABLE_FLAGS } from './variables.js';

/** `--aspect-ratio auto`: from the entry's size (what no flag means too). */
export const AUTO = 'auto';

export interface SharedFlagsOf {
  /** After "where the output goes": the default `--output` and the placeholders it may hold. */
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
      description: `where the output goes: a video, a GIF or a still (${of.output})`,
    },
    fps: {
      type: 'string',
      value: '<n>',
      description: `frames per second, ${MIN_FPS}–${MAX_FPS} (default ${RenderDefaults.fps}; gif at most ${GIF_FPS.max}, default ${GIF_FPS.default})`,
    },
    quality: {
      type: 'string',
      value: '<q>',
      description: `${RENDER_QUALITIES.join('|')} (default ${RenderDefaults.quality})`,
    },
    format: {
      type: 'string',
      value: '<f>',
      description: `${RENDER_FORMATS.join('|')} (default ${RenderDefaults.format}; ${STILL_FORMATS.join(', ')} are one frame at --time; ${[...ALPHA_FORMATS].join(', ')} keep alpha; gif has no sound)`,
    },
    resolution: {
      type: 'string',
      value: '<r>',
      description: `${RENDER_RESOLUTIONS.join('|')} (default: ${of.resolutionDefault}; 4k is ${[...FOUR_K_FORMATS].join(' and ')} only)`,
    },
    'aspect-ratio': {
      type: 'string',
      value: '<a>',
      description: `${ASPECT_RATIOS.join('|')}|${AUTO} (default ${AUTO}: ${of.aspectDefault})`,
    },
    ...OUTPUT_FLAGS,
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

/** The flags choosing which part of the timeline is output (part of {@link sharedRenderFlags}). */
const OUTPUT_FLAGS: Flags = {
  time: {
    type: 'string',
    value: '<seconds>',
    description: `png|jpeg|webp: the frame at this time, snapped to the frame grid (default: the middle)`,
  },
  'thumbnail-time': {
    type: 'string',
    value: '<seconds>',
    description: 'videos and gif: the thumbnail at this time (default: 1 s into the output, or its middle)',
  },
  range: {
    type: 'string',
    value: '<start>:<end>',
    description: 'videos and gif: only [start, end) of the timeline, in seconds, e.g. 1.5:4 (audio cut to match)',
  },
  'no-loop': {
    type: 'boolean',
    description: 'gif: play once (default: loop forever)',
  },
};

/** The flags of `OUTPUT_FLAGS` by the wire's field they set. */
const OUTPUT_FLAG_FIELDS: Partial<Record<RenderRequestField, string>> = {
  time: 'time',
  thumbnail_time: 'thumbnail-time',
  range: 'range',
  loop: 'no-loop',
};

/** What the output flags set, under the renderer's and the client's names; absent flags are left out. */
interface OutputSettings {
  time?: number;
  thumbnailTime?: number;
  range?: TimeRange;
  loop?: boolean;
}

const SECONDS = /^\d+(?:\.\d+)?$|^\.\d+$/;

function secondsOf(name: string, text: string, whole: string = text): number {
  const value = SECONDS.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isFinite(value) || value > MAX_SECONDS) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `"--${name}" must be ${name === 'range' ? '<start>:<end> in ' : 'a number of '}seconds from 0 to ${MAX_SECONDS}, got ${JSON.stringify(whole)}`,
    );
  }
  return value;
}

/** `--time`, `--thumbnail-time`, `--range` and `--no-loop`, checked for their form and against `format`. */
function outputSettings(values: ParsedArgs['values'], format: RenderFormat): OutputSettings {
  for (const [field, formats] of Object.entries(FORMAT_ONLY_FIELDS)) {
    const flag = OUTPUT_FLAG_FIELDS[field as RenderRequestField];
    if (flag && values[flag] !== undefined && values[flag] !== false && !formats.includes(format)) {
      throw cliError(
        CliErrorCode.flagIgnored,
        `"--${flag}" has no effect with "--format" ${format}: it applies to ${formats.join(', ')}`,
      );
    }
  }
  const settings: OutputSettings = {};
  if (typeof values.time === 'string') settings.time = secondsOf('time', values.time);
  if (typeof values['thumbnail-time'] === 'string')
    settings.thumbnailTime = secondsOf('thumbnail-time', values['thumbnail-time']);
  if (typeof values.range === 'string') {
    const parts = values.range.split(':');
    if (parts.length !== 2) secondsOf('range', '', values.range);
    const [start, end] = parts.map((part) => secondsOf('range', part, values.range as string)) as [number, number];
    if (end <= start) {
      throw cliError(
        CliErrorCode.flagInvalid,
        `"--range" must end after it starts, got ${JSON.stringify(values.range)}`,
      );
    }
    settings.range = { start, end };
  }
  if (values['no-loop'] === true) settings.loop = false;
  return settings;
}

/** The settings the shared flags set, checked for their form; absent flags are left out. */
export function sharedRenderSettings(values: ParsedArgs['values']): Pick<
  RenderRequest,
  'fps' | 'quality' | 'format' | 'resolution'
> &
  OutputSettings & {
    aspectRatio?: AspectRatio;
  } {
  const aspect = choiceFlag('aspect-ratio', values['aspect-ratio'], [...ASPECT_RATIOS, AUTO]);
  const format = choiceFlag('format', values.format, RENDER_FORMATS);
  const settings = {
    fps: integerFlag('fps', values.fps, MIN_FPS, format === 'gif' ? GIF_FPS.max : MAX_FPS),
    quality: choiceFlag('quality', values.quality, RENDER_QUALITIES),
    format,
    resolution: choiceFlag('resolution', values.resolution, RENDER_RESOLUTIONS),
    aspectRatio: aspect === AUTO ? undefined : aspect,
  };
  return {
    ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)),
    ...outputSettings(values, format ?? RenderDefaults.format),
  };
}

/** `--batch-concurrency`, 1 when absent. */
export const batchConcurrency = (values: ParsedArgs['values'], max: number) =>
  integerFlag('batch-concurrency', values['batch-concurrency'], 1, max) ?? 1;
