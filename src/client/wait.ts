import { TERMINAL_STATUSES } from '../wire/constants.js';
import type { Render } from '../wire/responses.js';
import { getRenderRequest, processGetRenderResponse } from './calls.js';
import { checkId } from './checks.js';
import { ClientErrorCode, FxApiError, refused } from './errors.js';
import type { ClientConfig } from './options.js';
import { sleep } from './retry.js';

export interface WaitOptions {
  /** Time between two polls. Default 10 s. */
  readonly pollInterval?: number;
  /** Give up after this long with a `timeout` error (the render itself goes on). Default 60 min. */
  readonly maxWait?: number;
  readonly signal?: AbortSignal;
  /** Called with every record read, the terminal one included. */
  readonly onProgress?: (render: Render) => void;
}

export const DEFAULT_POLL_INTERVAL_MS = 10_000;
export const DEFAULT_MAX_WAIT_MS = 60 * 60_000;

/**
 * Polls a render until it is `completed` or `failed` and resolves to that record (a failed render resolves too:
 * check `status` and `failure`). Rejects with `aborted` when `signal` aborts, and with `timeout` after `maxWait`;
 * neither leaves a timer or a request running.
 */
export async function waitForRender(
  config: ClientConfig,
  renderId: string,
  options: WaitOptions = {},
): Promise<Render> {
  checkId(renderId, 'render_id');
  const pollInterval = duration(options.pollInterval ?? DEFAULT_POLL_INTERVAL_MS, 'pollInterval');
  const maxWait = duration(options.maxWait ?? DEFAULT_MAX_WAIT_MS, 'maxWait');
  const { signal } = options;
  const deadline = Date.now() + maxWait;
  for (;;) {
    const render = await processGetRenderResponse(config, await getRenderRequest(config, renderId, { signal }), signal);
    options.onProgress?.(render);
    if (TERMINAL_STATUSES.has(render.status)) return render;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new FxApiError(
        ClientErrorCode.timeout,
        `render ${JSON.stringify(renderId)} is still ${render.status} after ${Math.round(maxWait / 1000)} s of waiting; it may still finish: check it later with getRender`,
        { retryable: true },
      );
    }
    await sleep(Math.min(pollInterval, left), signal);
  }
}

function duration(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw refused(
      ClientErrorCode.optionInvalid,
      `"${name}" must be a number of milliseconds of at least 0, got ${JSON.stringify(value)}`,
      name,
    );
  }
  return value;
}
