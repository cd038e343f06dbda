import type { Issue } from './issues.js';

/**
 * The one error class of the runtime. Callers branch on `code`, never on the message.
 * `issues` carries the itemised problems when an error summarises several (strict validation, lint).
 */
export class FxError extends Error {
  override name = 'FxError';
  readonly code: string;
  readonly issues: readonly Issue[];
  readonly status: number | undefined;

  constructor(code: string, message: string, options: { cause?: unknown; issues?: readonly Issue[]; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = options.issues ?? [];
    this.status = options.status;
  }
}

/** True for an {@link FxError}, optionally with the given code. */
export function isFxError(value: unknown, code?: string): value is FxError {
  return value instanceof FxError && (code === undefined || value.code === code);
}
