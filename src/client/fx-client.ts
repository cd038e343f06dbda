import type { RenderRequest } from '../wire/render-request.js';
import type { Account, Asset, DeletedRender, DryRun, Render, RenderList } from '../wire/responses.js';
import * as calls from './calls.js';
import type { CallOptions, IdempotentCallOptions, ListOptions, UploadOptions } from './calls.js';
import { downloadRender, downloadRenderStream, type DownloadedFile, type DownloadOptions } from './download.js';
import { ClientErrorCode, FxApiError, refused } from './errors.js';
import { clientConfig, type ClientConfig, type ClientOptions } from './options.js';
import { waitForRender, type WaitOptions } from './wait.js';

/**
 * A `/v3` client: each method sends one call (with retries, idempotency keys and one 401 replay) and resolves to
 * the typed answer, or rejects with `FxApiError`. Works in browsers and in Node 20; nothing is stored.
 *
 * @example
 * const client = new FxClient({ baseUrl: 'http://127.0.0.1:8787', credentials: apiKeyCredentials(key) });
 * const asset = await client.uploadAsset(zipBytes);
 * const render = await client.createRender({ asset_id: asset.asset_id, format: 'webm' });
 * const done = await client.waitForRender(render.render_id, { onProgress: (r) => console.log(r.progress) });
 * if (done.status === 'completed') {
 *   const { body } = await client.downloadRender(done);
 * }
 */
export class FxClient {
  readonly #config: ClientConfig;

  /** Checks `options` now: a bad base URL or retry policy throws `client_option_invalid`. */
  constructor(options: ClientOptions) {
    this.#config = clientConfig(options);
  }

  /** Uploads a zipped project (`POST /v3/assets`). */
  async uploadAsset(zip: Uint8Array | Blob, options: UploadOptions = {}): Promise<Asset> {
    return calls.processUploadAssetResponse(
      this.#config,
      await calls.uploadAssetRequest(this.#config, zip, options),
      options.signal,
    );
  }

  /** Submits a render (`POST /v3/renders`); the body is checked before it is sent. Resolves to the queued record. */
  async createRender(request: RenderRequest, options: IdempotentCallOptions = {}): Promise<Render> {
    if (request.dry_run === true) {
      throw refused(
        ClientErrorCode.optionInvalid,
        '"dry_run" true answers what would be rendered, not a render: call dryRunRender',
        'dry_run',
      );
    }
    return calls.processCreateRenderResponse(
      this.#config,
      await calls.createRenderRequest(this.#config, request, options),
      options.signal,
    );
  }

  /** Asks what `request` would render (`dry_run: true`): checked as a submit, nothing created, no credits used. */
  async dryRunRender(request: RenderRequest, options: IdempotentCallOptions = {}): Promise<DryRun> {
    return calls.processDryRunRenderResponse(
      this.#config,
      await calls.dryRunRenderRequest(this.#config, request, options),
      options.signal,
    );
  }

  /** The render's record, with fresh signed links once completed. */
  async getRender(renderId: string, options: CallOptions = {}): Promise<Render> {
    return calls.processGetRenderResponse(
      this.#config,
      await calls.getRenderRequest(this.#config, renderId, options),
      options.signal,
    );
  }

  /** One page of renders, newest first; pass its `next_token` as `token` for the next. */
  async listRenders(options: ListOptions = {}): Promise<RenderList> {
    return calls.processListRendersResponse(
      this.#config,
      await calls.listRendersRequest(this.#config, options),
      options.signal,
    );
  }

  /**
   * Every render, newest first, page after page (`limit` per request) as the loop asks for them.
   *
   * @example
   * for await (const render of client.renders()) console.log(render.render_id, render.status);
   */
  async *renders(options: Omit<ListOptions, 'token'> = {}): AsyncGenerator<Render, void, undefined> {
    const seen = new Set<string>();
    let token: string | undefined;
    do {
      const page = await this.listRenders({ ...options, ...(token === undefined ? {} : { token }) });
      yield* page.data;
      token = page.next_token ?? undefined;
      if (token !== undefined && seen.has(token))
        throw new FxApiError(
          ClientErrorCode.responseInvalid,
          'the service returned a "next_token" it had returned before',
        );
      if (token !== undefined) seen.add(token);
    } while (token !== undefined);
  }

  /** Cancels and hides a render (`DELETE /v3/renders/{render_id}`). */
  async deleteRender(renderId: string, options: CallOptions = {}): Promise<DeletedRender> {
    return calls.processDeleteRenderResponse(
      this.#config,
      await calls.deleteRenderRequest(this.#config, renderId, options),
      options.signal,
    );
  }

  /** Who the credential belongs to and this month's usage. */
  async getAccount(options: CallOptions = {}): Promise<Account> {
    return calls.processGetAccountResponse(
      this.#config,
      await calls.getAccountRequest(this.#config, options),
      options.signal,
    );
  }

  /** Polls until the render is `completed` or `failed` (see {@link waitForRender}). */
  waitForRender(renderId: string, options: WaitOptions = {}): Promise<Render> {
    return waitForRender(this.#config, renderId, options);
  }

  /** A completed render's video (or thumbnail) as a Blob, through its signed link, never with credentials. */
  downloadRender(render: Render | string, options: DownloadOptions = {}): Promise<DownloadedFile<Blob>> {
    return downloadRender(this.#config, render, options);
  }

  /** As {@link downloadRender}, as a stream: for large files, or to write to disk as bytes arrive. */
  downloadRenderStream(
    render: Render | string,
    options: DownloadOptions = {},
  ): Promise<DownloadedFile<ReadableStream<Uint8Array>>> {
    return downloadRenderStream(this.#config, render, options);
  }
}
