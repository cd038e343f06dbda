import type { RenderProgress } from '../../render/types.js';
import type { ServiceContext } from '../context.js';

/** Persists progress at most every `progressIntervalMs`, and always when the stage changes. */
export function throttledProgress(
  context: ServiceContext,
  renderId: string,
  write: (progress: RenderProgress) => Promise<void>,
) {
  let lastWrite = 0;
  let lastStage: string | undefined;
  return (progress: RenderProgress) => {
    const now = Date.now();
    if (progress.stage === lastStage && now - lastWrite < context.config.progressIntervalMs) return;
    lastWrite = now;
    lastStage = progress.stage;
    write(progress).catch((error) => context.config.log('progress not saved', { renderId, error: String(error) }));
  };
}
