import type { Issue } from '../runtime/issues.js';
import { ErrorCode, statusOf } from '../wire/constants.js';

/**
 * The one error class of the service. Routes throw it; the app turns it into the `{ error: { code, message,
 * param } }` body with the code's HTTP status.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | null;
  readonly issues: readonly Issue[] | undefined;
  /** Extra response headers, e.g. `WWW-Authenticate`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      param?: string | null;
      issues?: readonly Issue[];
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = statusOf(code);
    this.param = options.param ?? null;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }
}

export interface ErrorBody {
  readonly error: { code: string; message: string; param: string | null; issues?: readonly Issue[] };
}

export function errorBody(error: ServiceError): ErrorBody {
  const body: ErrorBody['error'] = { code: error.code, message: error.message, param: error.param };
  if (error.issues) body.issues = error.issues;
  return { error: body };
}

export function internalError(cause: unknown): ServiceError {
  return new ServiceError(ErrorCode.internalError, 'internal error', { cause });
}

/**
 * The client went away before its request was read (closed the connection mid-upload). Nobody is left to answer:
 * the service logs it as a client abort, not as a failure of its own.
 */
export class ClientAbortedError extends Error {
  override name = 'ClientAbortedError';
}
