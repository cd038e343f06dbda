import { createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FxError } from '../../runtime/errors.js';
import { FailureCode } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { afterJoinError, RenderTransition } from '../renders/render-state.js';
import type { RenderRow } from '../renders/render-types.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { StorageKey } from '../storage/keys.js';
import { failChunkedRender } from './chunk-failure.js';
import { completeRender } from './finish-render.js';
import { makeWorkDir, removeWorkDir } from './work-dir.js';

/** Copies a stored file to `path` (the chunks may be in a bucket, the join runs on local files). */
async function download(storage: BlobStorage, key: string, path: string): Promise<string> {
  const file = await storage.open(key);
  if (!file) throw new FxError(FailureCode.failed, `the chunk file ${JSON.stringify(key)} is missing`);
  await pipeline(file.stream(), createWriteStream(path));
  return path;
}

/**
 * Joins a chunked render whose join this worker claimed (`claimJoin`): downloads the chunk files of the render's
 * attempt, `joinChunks` them (no re-encode; the audio mixed once; the thumbnail from the joined file), stores the
 * video and thumbnail and completes the render with its webhook in one transaction, then removes the chunk files.
 * A join that fails fails the render; one stopped by a shutdown is left to the job's next holder.
 */
export async function runJoin(
  context: ServiceContext,
  render: RenderRow,
  renderAttempt: number,
  signal: AbortSignal,
): Promise<void> {
  const { config, storage } = context;
  let workDir: string | undefined;
  let projectDir: string | undefined;
  try {
    // Inside the try: a join that cannot even start fails the render, which would otherwise stay `muxing`.
    const folder = await makeWorkDir(config.dataDir, render.id, 'join');
    workDir = folder;
    const started = Date.now();
    const rows = (await context.chunks.list(render.id)).filter((row) => row.renderAttempt === renderAttempt);
    const paths = await Promise.all(
      rows.map((row) => download(storage, row.fileKey!, join(folder, basename(row.fileKey!)))),
    );
    signal.throwIfAborted();
    projectDir = await storage.localDirectory(render.projectKey);
    const result = await config.chunkRenderer.joinChunks({
      chunks: rows.map((row, index) => ({ ...row.result!, path: paths[index]! })),
      outputPath: join(folder, `video.${render.request.format}`),
      projectDir,
      unsafeAllowPrivateNetwork: config.allowPrivateNetworkUrls,
      signal,
      ...(config.renderOptions.timeoutMs === undefined ? {} : { timeoutMs: config.renderOptions.timeoutMs }),
    });
    if (signal.aborted) throw signal.reason;
    if (await completeRender(context, render, result, renderAttempt)) {
      // The join's cost (downloads, concat, audio, thumbnail, upload): where adding workers stops paying.
      config.log('render joined', { renderId: render.id, chunks: rows.length, ms: Date.now() - started });
      await storage.deletePrefix(StorageKey.chunks(render.id));
    }
  } catch (error) {
    if (afterJoinError(signal.aborted ? signal.reason : undefined) === RenderTransition.fail)
      await failChunkedRender(context, render, error, renderAttempt);
  } finally {
    if (projectDir !== undefined) storage.releaseDirectory?.(render.projectKey);
    await removeWorkDir(workDir);
  }
}
