/** The flags of `fx cloud render` (the specification's table) and the client options they make. */
import { MAX_BATCH_CONCURRENCY } from '../client/cloud-render-batch.js';
import type { CloudRenderOptions } from '../client/cloud-render.js';
import {
  ASPECT_RATIOS,
  MAX_FPS,
  MIN_FPS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
} from '../wire/render-request.js';
import { choiceFlag, exclusive, integerFlag, numberFlag } from './args.js';
import { stringFlag, type CommandContext, type Flags } from './command.js';
import { VARIABLE_FLAGS } from './variables.js';

export const AUTO = 'auto';
export const DEFAULT_CLOUD_OUTPUT = 'renders/{render_id}.{ext}';

export const CLOUD_RENDER_FLAGS: Flags = {
  fps: { type: 'string', value: '<n>', description: `frames per second, ${MIN_FPS}–${MAX_FPS} (default 30)` },
  quality: { type: 'string', value: '<q>', description: `${RENDER_QUALITIES.join('|')} (default standard)` },
  format: {
    type: 'string',
    value: '<f>',
    description: `${RENDER_FORMATS.join('|')} (default mp4; webm and mov keep alpha)`,
  },
  resolution: {
    type: 'string',
    value: '<r>',
    description: `${RENDER_RESOLUTIONS.join('|')} (default 1080p; 4k is billed 1.5×, mp4 only)`,
  },
  'aspect-ratio': {
    type: 'string',
    value: '<a>',
    description: `${ASPECT_RATIOS.join('|')}|auto (default: from the entry's size; 16:9 for --asset-id/--url)`,
  },
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
    description: `where the video goes (default ${DEFAULT_CLOUD_OUTPUT}; batch: {index}, {<id>})`,
  },
  'asset-id': { type: 'string', value: '<id>', description: 'render an uploaded asset: no zip, no upload' },
  url: { type: 'string', value: '<url>', description: 'render a page URL: no zip, no upload' },
  ...VARIABLE_FLAGS,
  'no-wait': { type: 'boolean', description: 'submit, print the render_id and exit' },
  'callback-url': { type: 'string', value: '<url>', description: 'https URL the service calls when the render ends' },
  'callback-id': { type: 'string', value: '<id>', description: 'your id, echoed in the webhook' },
  'poll-interval': { type: 'string', value: '<s>', description: 'seconds between polls (default 10)' },
  'max-wait': { type: 'string', value: '<min>', description: 'minutes to wait for the render (default 60)' },
  'idempotency-key': {
    type: 'string',
    value: '<key>',
    description: 'sent with upload and submit: repeating the command creates nothing new',
  },
  'dry-run': {
    type: 'boolean',
    description: 'list the files that would be uploaded, their sizes and total; send nothing',
  },
  batch: {
    type: 'string',
    value: '<rows.json|rows.csv>',
    description: 'one render per row, each merged over the variables',
  },
  'batch-concurrency': {
    type: 'string',
    value: '<n>',
    description: `rows rendered at once, 1–${MAX_BATCH_CONCURRENCY} (default 1)`,
  },
};

/** The render options the flags set (checked here for their form; the client checks the rest, before any request). */
export function cloudRenderOptions(context: CommandContext): Omit<CloudRenderOptions, 'baseUrl'> {
  const { values } = context;
  exclusive(values, 'asset-id', 'url');
  const aspect = choiceFlag('aspect-ratio', values['aspect-ratio'], [...ASPECT_RATIOS, AUTO]);
  const pollSeconds = numberFlag('poll-interval', values['poll-interval'], 3600);
  const maxMinutes = numberFlag('max-wait', values['max-wait'], 7 * 24 * 60);
  const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    ...optional('fps', integerFlag('fps', values.fps, MIN_FPS, MAX_FPS)),
    ...optional('quality', choiceFlag('quality', values.quality, RENDER_QUALITIES)),
    ...optional('format', choiceFlag('format', values.format, RENDER_FORMATS)),
    ...optional('resolution', choiceFlag('resolution', values.resolution, RENDER_RESOLUTIONS)),
    ...optional('aspectRatio', aspect === AUTO ? undefined : aspect),
    ...optional('strictVariables', values['strict-variables'] ? true : undefined),
    ...optional('callbackUrl', stringFlag(context, 'callback-url')),
    ...optional('callbackId', stringFlag(context, 'callback-id')),
    ...optional('idempotencyKey', stringFlag(context, 'idempotency-key')),
    ...optional('pollInterval', pollSeconds === undefined ? undefined : pollSeconds * 1000),
    ...optional('maxWait', maxMinutes === undefined ? undefined : maxMinutes * 60_000),
    signal: context.signal,
  };
}
