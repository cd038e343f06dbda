/** Flags of `fx cloud render` (the shared ones plus the specification's cloud-only ones) and the client options they make. */
import { MAX_BATCH_CONCURRENCY } from '../../client/cloud-render-batch.js';
import type { CloudRenderOptions } from '../../client/cloud-render.js';
import type { RenderSettingsOptions } from '../../client/render-settings.js';
import { METADATA_LIMITS, RenderDefaults } from '../../wire/render-request.js';
import { exclusive, numberFlag } from '../args.js';
import { ARGUMENT, stringFlag, type CommandContext, type FlagRule, type Flags } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { sharedRenderFlags, sharedRenderSettings } from '../shared-render-flags.js';

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
  metadata: {
    type: 'string',
    value: '<json>',
    description: `a JSON object stored with the render and echoed in its webhook (at most ${METADATA_LIMITS.bytes} bytes, ${METADATA_LIMITS.depth} levels); with --batch, "{<variable id>}" in its values is filled from each row`,
  },
  'dry-run': {
    type: 'boolean',
    description:
      'list the files that would be uploaded and files the compositions name that it lacks, then ask the service what would be rendered (size, frames, duration, credits, warnings): no render, no credits',
  },
};

const NOT_WAITED = 'the command exits once the render is submitted';
export const CLOUD_RENDER_RULES: readonly FlagRule[] = [
  { flag: 'batch-concurrency', needs: 'batch', why: 'one render has no rows to run at once' },
  { flag: 'asset-id', not: ARGUMENT, why: 'the uploaded asset is the project; no folder is read' },
  { flag: 'url', not: ARGUMENT, why: 'the page is the project; no folder is read' },
  { flag: 'composition', not: 'url', why: 'a page URL has no entry file' },
  { flag: 'output', not: 'no-wait', why: `nothing is downloaded: ${NOT_WAITED}` },
  { flag: 'dry-run', not: 'batch', why: 'a dry run asks about one render; check a row with --variables' },
  { flag: 'dry-run', not: 'no-wait', why: 'a dry run submits nothing to wait for' },
  { flag: 'output', not: 'dry-run', why: 'a dry run downloads nothing' },
  { flag: 'poll-interval', not: 'no-wait', why: NOT_WAITED },
  { flag: 'max-wait', not: 'no-wait', why: NOT_WAITED },
];

/**
 * What the shared render flags set (src/cli/shared-render-flags.ts), as the client's options: the video settings,
 * and a still's `time`, `thumbnailTime`, `range` and `loop` (`--no-loop`) where the shared flags give them.
 */
export type SharedRenderSettings = Pick<
  RenderSettingsOptions,
  'fps' | 'quality' | 'format' | 'resolution' | 'aspectRatio' | 'time' | 'thumbnailTime' | 'range' | 'loop'
>;

/** The client options of the parsed shared flags: each one given, under the client's name. */
export function sharedClientSettings(shared: SharedRenderSettings): SharedRenderSettings {
  const { fps, quality, format, resolution, aspectRatio, time, thumbnailTime, range, loop } = shared;
  const settings = { fps, quality, format, resolution, aspectRatio, time, thumbnailTime, range, loop };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** `--metadata` as an object; `undefined` when not given. */
export function metadataFlag(value: string | boolean | undefined): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw cliError(CliErrorCode.metadataInvalid, `"--metadata" is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw cliError(CliErrorCode.metadataInvalid, `"--metadata" must be a JSON object, got ${kind}`);
  }
  return parsed as Record<string, unknown>;
}

/** The render options the flags set (checked here for their form; the client checks the rest, before any request). */
export function cloudRenderOptions(context: CommandContext): Omit<CloudRenderOptions, 'baseUrl'> {
  const { values } = context;
  exclusive(values, 'asset-id', 'url');
  const pollSeconds = numberFlag('poll-interval', values['poll-interval'], 3600);
  const maxMinutes = numberFlag('max-wait', values['max-wait'], 7 * 24 * 60);
  const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    ...sharedClientSettings(sharedRenderSettings(values)),
    ...optional('metadata', metadataFlag(values.metadata)),
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
