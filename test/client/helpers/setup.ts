/** A reference service behind a fault proxy, and a client pointed at the proxy. */
import { apiKeyCredentials } from '../../../src/client/api-key.js';
import { FxClient } from '../../../src/client/fx-client.js';
import type { ClientOptions } from '../../../src/client/options.js';
import { compositionHtml, startTestService, type TestService } from '../../service/helpers/harness.js';
import { projectZip } from '../../service/helpers/zip-builder.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

export interface ClientSetup {
  readonly service: TestService;
  readonly proxy: FaultProxy;
  /** A client with the service's API key, through the proxy; fast retries. */
  client(options?: Partial<ClientOptions>): FxClient;
  close(): Promise<void>;
}

/** Retries quick enough for tests, and enough of them for a burst. */
export const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 200, budgetMs: 10_000, maxAttempts: 8 } as const;

export async function startClientSetup(): Promise<ClientSetup> {
  const proxy = await startFaultProxy();
  const service = await startTestService({ publicBaseUrl: proxy.url });
  proxy.forwardTo(service.url);
  return {
    service,
    proxy,
    client: (options = {}) =>
      new FxClient({ baseUrl: proxy.url, credentials: apiKeyCredentials(service.key), retry: FAST_RETRY, ...options }),
    close: async () => {
      await proxy.close();
      await service.close();
    },
  };
}

export const PROJECT_ZIP = projectZip({ 'index.html': compositionHtml({ duration: 0.5 }) });
