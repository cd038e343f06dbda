import { FxError } from '../runtime/errors.js';
import type { Issue } from '../runtime/issues.js';
import type { ErrorCode } from '../wire/constants.js';

/** Codes the client gives besides the service's own (`ErrorCode` of src/wire). */
export const ClientErrorCode = {
  /** No answer: the connection failed or dropped (after the retries the budget allowed). */
  networkError: 'network_error',
  /** `waitForRender` reached `maxWait`; the render may still finish. */
  timeout: 'timeout',
  /** The caller's `signal` aborted the call; nothing is left running. */
  aborted: 'aborted',
  /** A success answer whose body breaks the contract: not JSON, wrong shape, too large. */
  responseInvalid: 'response_invalid',
  /** An error status without the `{ error }` body (a gateway's HTML page, a bare 502). */
  httpError: 'http_error',
  /** 401 and no (other) credential to replay with: sign in again, or give a valid API key. */
  authRequired: 'auth_required',
  /** `downloadRender` of a render that is not `completed`. */
  renderNotCompleted: 'render_not_completed',
  /** `downloadRender` of a render whose files the service's retention removed (its `files_expired_at`). */
  renderFilesExpired: 'render_files_expired',
  /** A `ClientOptions` value is unusable (base URL, retry policy, API key); the message names it. */
  optionInvalid: 'client_option_invalid',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];
/** The service's codes and the client's. A newer service may send codes this table does not list yet. */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

/** Statuses worth trying again: the request may succeed unchanged (with the same idempotency key). */
export const isRetryableStatus = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * The one error class of the `/v3` client: the service's refusals (`status`, `code`, `param`, and for
 * `render_project_invalid` every variable issue in `issues`) and the client's own failures (`ClientErrorCode`).
 * `retryable` says whether the same call may succeed later; the client already retried within its budget.
 */
export class FxApiError extends FxError<ApiErrorCode> {
  override name = 'FxApiError';
  /** The request field, query parameter or header at fault, else null. */
  readonly param: string | null;
  readonly retryable: boolean;

  constructor(
    code: ApiErrorCode,
    message: string,
    options: {
      status?: number;
      param?: string | null;
      issues?: readonly Issue[];
      retryable?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(code, message, options);
    this.param = options.param ?? null;
    this.retryable = options.retryable ?? false;
  }
}

/** A refusal before any request: the same codes the service would answer with, and no status. */
export const refused = (code: ApiErrorCode, message: string, param: string | null = null) =>
  new FxApiError(code, message, { param });

export function abortedError(signal: AbortSignal): FxApiError {
  return new FxApiError(ClientErrorCode.aborted, 'the call was aborted', { cause: signal.reason });
}
