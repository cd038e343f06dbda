/**
 * Writes a completed render's video to disk as it arrives: into `<path>.partial`, renamed over `path` once
 * complete, removed on any failure or Ctrl-C — so `path` is either the whole video or absent.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FxClient } from '../client/fx-client.js';
import type { Render } from '../wire/responses.js';

export const PARTIAL_SUFFIX = '.partial';

export async function downloadToFile(
  client: FxClient,
  render: Render | string,
  path: string,
  options: { signal: AbortSignal; onProgress?: (loaded: number, total: number | undefined) => void },
): Promise<{ path: string; bytes: number; render: Render }> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}${PARTIAL_SUFFIX}`;
  let bytes = 0;
  try {
    const file = await client.downloadRenderStream(render, {
      signal: options.signal,
      onProgress: ({ loaded, total }) => {
        bytes = loaded;
        options.onProgress?.(loaded, total);
      },
    });
    await pipeline(
      Readable.fromWeb(file.body as WebReadableStream<Uint8Array>),
      createWriteStream(partial, { flags: 'w' }),
      { signal: options.signal },
    );
    await rename(partial, path);
    return { path, bytes, render: file.render };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
