import type { ServiceContext } from '../context.js';
import type { RenderRow } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';
import { AbortReason } from './job-queue.js';
import { failRender } from './finish-render.js';

/**
 * Fails a chunked render once (its webhook in the same transaction), stops its other chunks and removes the chunk
 * files. A chunk that finishes later finds its render failed and removes its own file.
 */
export async function failChunkedRender(
  context: ServiceContext,
  render: RenderRow,
  error: unknown,
  renderAttempt: number,
): Promise<void> {
  if (!(await failRender(context, render, error, renderAttempt))) return;
  context.queue.cancel(render.id, AbortReason.failed);
  await context.storage.deletePrefix(StorageKey.chunks(render.id));
}
