/**
 * The `/v3` calls in pairs, as oauth4webapi shapes them: `xRequest(config, …)` checks its input (a bad one throws
 * before anything is sent), sends with retries, and resolves to the `Response`; `processXResponse(config,
 * response)` checks the answer and resolves to a typed value, or throws `FxApiError`. `FxClient` chains the two.
 */
import { ErrorCode, Header, JSON_CONTENT_TYPE, Route, ZIP_CONTENT_TYPE } from '../wire/constants.js';
import { checkRenderRequest, DEFAULT_VARIABLES_LIMITS, type RenderRequest } from '../wire/render-request.js';
import {
  accountSchema,
  assetSchema,
  deletedRenderSchema,
  dryRunSchema,
  renderListSchema,
  renderSchema,
} from '../wire/responses.js';
import { checkCallbackUrl } from './callback-url.js';
import { checkId, checkLimit, checkString, idempotencyKey } from './checks.js';
import { ClientErrorCode, FxApiError, refused } from './errors.js';
import type { ClientConfig } from './options.js';
import { processJson } from './read-response.js';
import { send, type Outgoing } from './send.js';

export interface CallOptions {
  /** Aborts the call, its retries and waits included. */
  readonly signal?: AbortSignal;
}
export interface IdempotentCallOptions extends CallOptions {
  /**
   * 1–255 characters of `[A-Za-z0-9_:.-]`. Default: a new random key for this call, kept across its retries. Give
   * your own to make a call safe to repeat across restarts: the service answers the same key and body with the
   * first answer for 24 hours.
   */
  readonly idempotencyKey?: string;
}
export interface UploadOptions extends IdempotentCallOptions {
  /** The entry HTML file in the zip. Default `index.html`. */
  readonly composition?: string;
}
export interface ListOptions extends CallOptions {
  /** 1–100 renders per page; default 20. */
  readonly limit?: number;
  /** The `next_token` of the previous page. */
  readonly token?: string;
}

const url = (config: ClientConfig, path: string, query?: Record<string, string | undefined>) => {
  const search = new URLSearchParams(
    Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return `${config.base}${path}${search ? `?${search}` : ''}`;
};
/** A `/v3` call: its JSON answer is read within each attempt, so one that breaks off mid-body is retried. */
const call = (config: ClientConfig, request: Omit<Outgoing, 'bodyLimit'>) =>
  send(config, { ...request, bodyLimit: config.maxResponseBytes });
const renderPath = (id: string) => Route.render.replace(':render_id', encodeURIComponent(checkId(id, 'render_id')));

/** `POST /v3/assets`: a zipped project (the raw zip bytes). Every upload carries an `Idempotency-Key`. */
export async function uploadAssetRequest(
  config: ClientConfig,
  zip: Uint8Array | Blob,
  options: UploadOptions = {},
): Promise<Response> {
  if (!(zip instanceof Uint8Array) && !(typeof Blob !== 'undefined' && zip instanceof Blob)) {
    throw refused(
      ErrorCode.bodyInvalid,
      `the upload must be the zip's bytes (Uint8Array or Blob), got ${zip === null ? 'null' : typeof zip}`,
    );
  }
  const composition =
    options.composition === undefined ? undefined : checkString(options.composition, 'composition', 1024);
  const key = idempotencyKey(options.idempotencyKey);
  return call(config, {
    method: 'POST',
    url: url(config, Route.assets, { composition }),
    headers: { [Header.contentType]: ZIP_CONTENT_TYPE, [Header.idempotencyKey]: key },
    body: zip,
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processUploadAssetResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 201, assetSchema, config.maxResponseBytes, signal);

/**
 * `POST /v3/renders`. The body is checked as the service checks it (fields, types, ranges, 4k with an alpha
 * format) before anything is sent, so a bad option costs no request. Every submit carries an `Idempotency-Key`.
 */
export async function createRenderRequest(
  config: ClientConfig,
  request: RenderRequest,
  options: IdempotentCallOptions = {},
): Promise<Response> {
  let body: string;
  try {
    body = JSON.stringify(request);
  } catch (error) {
    // A cycle or a BigInt in the values: JSON cannot carry it (a cycle is no "too deep").
    throw refused(ErrorCode.bodyInvalid, `the render request is not JSON: ${(error as Error).message}`, 'variables');
  }
  const checked = checkRenderRequest(request, DEFAULT_VARIABLES_LIMITS);
  if ('problem' in checked) throw refused(checked.problem.code, checked.problem.message, checked.problem.param);
  if (typeof request.callback_url === 'string') checkCallbackUrl(request.callback_url);
  const key = idempotencyKey(options.idempotencyKey);
  return call(config, {
    method: 'POST',
    url: url(config, Route.renders),
    headers: { [Header.contentType]: JSON_CONTENT_TYPE, [Header.idempotencyKey]: key },
    body,
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processCreateRenderResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 202, renderSchema, config.maxResponseBytes, signal);

/**
 * `POST /v3/renders` with `dry_run: true`: checked and sent as `createRenderRequest`; the service checks all a
 * submit checks and answers 200 with what would be rendered, creating nothing.
 */
export const dryRunRenderRequest = (
  config: ClientConfig,
  request: RenderRequest,
  options: IdempotentCallOptions = {},
) => createRenderRequest(config, { ...request, dry_run: true }, options);
export async function processDryRunRenderResponse(config: ClientConfig, response: Response, signal?: AbortSignal) {
  if (response.status === 202) {
    // A service older than dry runs ignores the field and queues the render: say so, with its id, to delete it.
    const queued = await processCreateRenderResponse(config, response, signal);
    throw new FxApiError(
      ClientErrorCode.responseInvalid,
      `the service does not know "dry_run" and queued render ${queued.render_id}; delete it (fx cloud delete ${queued.render_id}) if it was not meant to run`,
      { status: 202 },
    );
  }
  return processJson(response, 200, dryRunSchema, config.maxResponseBytes, signal);
}

/** `GET /v3/renders/{render_id}`: the record, with fresh signed links once completed. */
export async function getRenderRequest(
  config: ClientConfig,
  renderId: string,
  options: CallOptions = {},
): Promise<Response> {
  return call(config, {
    method: 'GET',
    url: url(config, renderPath(renderId)),
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processGetRenderResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 200, renderSchema, config.maxResponseBytes, signal);

/** `GET /v3/renders`: one page, newest first. */
export async function listRendersRequest(config: ClientConfig, options: ListOptions = {}): Promise<Response> {
  const limit = checkLimit(options.limit);
  const token = options.token === undefined ? undefined : checkString(options.token, 'token', 1024);
  return call(config, {
    method: 'GET',
    url: url(config, Route.renders, { limit: limit?.toString(), token }),
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processListRendersResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 200, renderListSchema, config.maxResponseBytes, signal);

/**
 * `DELETE /v3/renders/{render_id}`: cancels and hides the render. Retried like a GET: if an earlier attempt was
 * applied but its answer lost, the retry answers `render_not_found`.
 */
export async function deleteRenderRequest(
  config: ClientConfig,
  renderId: string,
  options: CallOptions = {},
): Promise<Response> {
  return call(config, {
    method: 'DELETE',
    url: url(config, renderPath(renderId)),
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processDeleteRenderResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 200, deletedRenderSchema, config.maxResponseBytes, signal);

/** `GET /v3/account`: who the credential belongs to and this month's usage. */
export async function getAccountRequest(config: ClientConfig, options: CallOptions = {}): Promise<Response> {
  return call(config, {
    method: 'GET',
    url: url(config, Route.account),
    idempotent: true,
    authorize: true,
    signal: options.signal,
  });
}
export const processGetAccountResponse = (config: ClientConfig, response: Response, signal?: AbortSignal) =>
  processJson(response, 200, accountSchema, config.maxResponseBytes, signal);
