/** Flags of `fx cloud render` (the shared ones plus the specification's cloud-only ones) and the client options they make. */
import { MAX_BATCH_CONCURRENCY } from '../client/cloud-render-batch.js';
import type { CloudRenderOptions } from '../client/cloud-render.js';
import { RenderDefaults } from '../wire/render-request.js';
import { exclusive, numberFlag } from './args.js';
import { ARGUMENT, stringFlag, type CommandContext, type FlagRule, type Flags } from './command.js';
import { sharedRenderFlags, sharedRenderSettings } from './shared-render-flags.js';

export const DEFAULT_CLOUD_OUTPUT = 'renders/{render_id}.{ext}';

export const CLOUD_RENDER_FLAGS: Flags = {
  ...sharedRenderFlags({
    output: `default ${DEFAULT_CLOUD_OUTPUT}; {render_id}, {index}, {ext}, {<variable id>}`,
    resolutionDefault: `${RenderDefaults.resolution}; 4k is billed 1.5×`,
    aspectDefault: "the entry's size; 16:9 for --asset-id/--url",
    maxBatchConcurrency: MAX_BATCH_CONCURRENCY,
  }),
  'asset-id': { type: 'string', value: '<id>', description: 'render an uploaded asset: no zip, no upload' },
  url: { type: 'string', value: '<url>', description: 'render a page URL: no zip, no upload' },
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
  'allow-missing-files': {
    type: 'boolean',
    description:
      'render even when the composition names files the upload lacks (project_file_missing); they show as missing',
  },
  'dry-run': {
    type: 'boolean',
    description:
      'list the files that would be uploaded, their sizes and total, and files the compositions name that it lacks; send nothing',
  },
};

const NOT_WAITED = 'the command exits once the render is submitted';
export const CLOUD_RENDER_RULES: readonly FlagRule[] = [
  { flag: 'batch-concurrency', needs: 'batch', why: 'one render has no rows to run at once' },
  { flag: 'asset-id', not: ARGUMENT, why: 'the uploaded asset is the project; no folder is read' },
  { flag: 'url', not: ARGUMENT, why: 'the page is the project; no folder is read' },
  { flag: 'composition', not: 'url', why: 'a page URL has no entry file' },
  { flag: 'output', not: 'no-wait', why: `nothing is downloaded: ${NOT_WAITED}` },
  { flag: 'poll-interval', not: 'no-wait', why: NOT_WAITED },
  { flag: 'max-wait', not: 'no-wait', why: NOT_WAITED },
];

/** The render options the flags set (checked here for their form; the client checks the rest, before any request). */
export function cloudRenderOptions(context: CommandContext): Omit<CloudRenderOptions, 'baseUrl'> {
  const { values } = context;
  exclusive(values, 'asset-id', 'url');
  const pollSeconds = numberFlag('poll-interval', values['poll-interval'], 3600);
  const maxMinutes = numberFlag('max-wait', values['max-wait'], 7 * 24 * 60);
  const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    ...sharedRenderSettings(values),
    ...optional('strictVariables', values['strict-variables'] ? true : undefined),
    ...optional('allowMissingFiles', values['allow-missing-files'] ? true : undefined),
    ...optional('callbackUrl', stringFlag(context, 'callback-url')),
    ...optional('callbackId', stringFlag(context, 'callback-id')),
    ...optional('idempotencyKey', stringFlag(context, 'idempotency-key')),
    ...optional('pollInterval', pollSeconds === undefined ? undefined : pollSeconds * 1000),
    ...optional('maxWait', maxMinutes === undefined ? undefined : maxMinutes * 60_000),
    signal: context.signal,
  };
}
