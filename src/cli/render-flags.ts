/** Flags of `fx render` and the renderer options they make. */
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MAX_FPS } from '../render/options.js';
import type { RenderOptions } from '../render/types.js';
import {
  ASPECT_RATIOS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  RenderDefaults,
} from '../wire/render-request.js';
import { choiceFlag, integerFlag } from './args.js';
import type { CommandContext, Flags } from './command.js';
import { VARIABLE_FLAGS } from './variables.js';

export const DEFAULT_LOCAL_OUTPUT = 'renders/{name}.{ext}';
export const DEFAULT_BATCH_OUTPUT = 'renders/{name}-{index}.{ext}';

export const RENDER_FLAGS: Flags = {
  composition: {
    type: 'string',
    short: 'c',
    value: '<file>',
    description: 'entry HTML file in the project (default index.html)',
  },
  output: {
    type: 'string',
    short: 'o',
    value: '<path>',
    description: `video path (default ${DEFAULT_LOCAL_OUTPUT}; batch ${DEFAULT_BATCH_OUTPUT}; {<id>} from the row)`,
  },
  fps: { type: 'string', value: '<n>', description: `frames per second, 1–${MAX_FPS} (default ${RenderDefaults.fps})` },
  format: {
    type: 'string',
    value: '<f>',
    description: `${RENDER_FORMATS.join('|')} (default mp4; webm and mov keep alpha)`,
  },
  quality: { type: 'string', value: '<q>', description: `${RENDER_QUALITIES.join('|')} (default standard)` },
  resolution: {
    type: 'string',
    value: '<r>',
    description: `${RENDER_RESOLUTIONS.join('|')} (default: the composition's own size)`,
  },
  'aspect-ratio': {
    type: 'string',
    value: '<a>',
    description: `${ASPECT_RATIOS.join('|')} (default: from the composition's size)`,
  },
  workers: {
    type: 'string',
    value: '<n>',
    description: `capture browsers per render, 1–${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`,
  },
  ...VARIABLE_FLAGS,
  batch: {
    type: 'string',
    value: '<rows.json|rows.csv>',
    description: 'one render per row, each merged over the variables',
  },
  'batch-concurrency': { type: 'string', value: '<n>', description: 'rows rendered at once (default 1)' },
  resume: {
    type: 'boolean',
    description: 'batch: skip rows manifest.json lists as completed (same values, file present)',
  },
};

export function renderSettings(
  context: CommandContext,
): Pick<RenderOptions, 'fps' | 'format' | 'quality' | 'resolution' | 'aspectRatio' | 'concurrency'> {
  const { values } = context;
  const workers = integerFlag('workers', values.workers, 1, MAX_CONCURRENCY);
  const resolution = choiceFlag('resolution', values.resolution, RENDER_RESOLUTIONS);
  const aspectRatio = choiceFlag('aspect-ratio', values['aspect-ratio'], ASPECT_RATIOS);
  return {
    fps: integerFlag('fps', values.fps, 1, MAX_FPS) ?? RenderDefaults.fps,
    format: choiceFlag('format', values.format, RENDER_FORMATS) ?? RenderDefaults.format,
    quality: choiceFlag('quality', values.quality, RENDER_QUALITIES) ?? RenderDefaults.quality,
    ...(resolution ? { resolution } : {}),
    ...(aspectRatio ? { aspectRatio } : {}),
    ...(workers ? { concurrency: workers } : {}),
  };
}
