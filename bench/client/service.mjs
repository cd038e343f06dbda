// The Node half of the upload and click-to-frame figures: a real reference service in this process (temp data
// folder, embedded defaults as `src/service/main.ts` starts them, the real renderer from src/render), an API key,
// and the instant the renderer reported each render's first finished frame (no polling in between).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const ACCOUNT = 'bench';

/**
 * Starts the service on 127.0.0.1 (random port). Resolves to `{ url, key, firstFrameAt, close() }`, where
 * `firstFrameAt` lists, per render in the order they ran, the epoch ms when the renderer first reported
 * `framesDone > 0`.
 */
export async function startBenchService({ log }) {
  const { createService } = await tsImport('../../src/service/service.ts', import.meta.url);
  const { render } = await tsImport('../../src/render/index.ts', import.meta.url);
  const firstFrameAt = [];
  // Wraps the real renderer only to timestamp its first frame; what it renders and how is untouched.
  const timedRender = (options) => {
    const index = firstFrameAt.push(undefined) - 1;
    return render({
      ...options,
      onProgress: (progress) => {
        if (firstFrameAt[index] === undefined && progress.framesDone > 0) firstFrameAt[index] = Date.now();
        options.onProgress?.(progress);
      },
    });
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'fx-bench-service-'));
  const service = await createService({
    dataDir,
    render: timedRender,
    log: (message, details) => log(`service: ${message}${details ? ` ${JSON.stringify(details)}` : ''}`),
  });
  const { url } = await service.listen(0);
  const account = await service.context.accounts.ensure(ACCOUNT, Date.now());
  const { key } = await service.context.apiKeys.create(account.id);
  return {
    url,
    key,
    firstFrameAt,
    async close() {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
