/** Flags of `fx render` (the shared ones plus `--workers`, `--resume`) and the renderer options they make. */
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../render/options.js';
import type { RenderOptions } from '../../render/types.js';
import { defaultFps, RenderDefaults } from '../../wire/render-request.js';
import { integerFlag } from '../args.js';
import type { CommandContext, Flags } from '../command.js';
import { sharedRenderFlags, sharedRenderSettings } from '../shared-render-flags.js';

export const DEFAULT_LOCAL_OUTPUT = 'renders/{name}.{ext}';
export const DEFAULT_BATCH_OUTPUT = 'renders/{name}-{index}.{ext}';

export const RENDER_FLAGS: Flags = {
  ...sharedRenderFlags({
    output: `default ${DEFAULT_LOCAL_OUTPUT}, batch ${DEFAULT_BATCH_OUTPUT}; {index}, {ext}, {name}, {<variable id>}`,
    resolutionDefault: "the composition's own size",
    aspectDefault: "the composition's size",
    maxBatchConcurrency: MAX_CONCURRENCY,
  }),
  workers: {
    type: 'string',
    value: '<n>',
    description: `capture browsers per render, 1–${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`,
  },
  resume: {
    type: 'boolean',
    description: 'batch: skip rows manifest.json lists as completed (same values, settings and file)',
  },
  'allow-missing-files': {
    type: 'boolean',
    description:
      'render even when the composition names files the project lacks (project_file_missing); they show as missing',
  },
};

export function renderSettings(
  context: CommandContext,
): Pick<
  RenderOptions,
  | 'fps'
  | 'format'
  | 'quality'
  | 'resolution'
  | 'aspectRatio'
  | 'concurrency'
  | 'allowMissingFiles'
  | 'time'
  | 'thumbnailTime'
  | 'range'
  | 'loop'
> {
  const workers = integerFlag('workers', context.values.workers, 1, MAX_CONCURRENCY);
  const { fps, format = RenderDefaults.format, quality, ...rest } = sharedRenderSettings(context.values);
  return {
    fps: fps ?? defaultFps(format),
    format,
    quality: quality ?? RenderDefaults.quality,
    ...rest,
    ...(workers ? { concurrency: workers } : {}),
    ...(context.values['allow-missing-files'] ? { allowMissingFiles: true } : {}),
  };
}
