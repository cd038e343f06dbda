import type { CompileIssueCode } from './compile/codes.js';
import type { Issue } from './issues.js';

/** Codes the runtime throws besides the compiler's ({@link CompileIssueCode}). */
export const RuntimeErrorCode = {
  /** `validateVariables(…, { strict: true })` found issues; they are in `issues`. */
  variablesInvalid: 'variables_invalid',
  /** No `DOMParser` (Node without `fx-sdk/node`). */
  htmlParserUnavailable: 'html_parser_unavailable',
} as const;
export type RuntimeErrorCode = (typeof RuntimeErrorCode)[keyof typeof RuntimeErrorCode] | CompileIssueCode;

/**
 * Marks an FxError for {@link isFxError} across copies of this class on one page: a classic script and the export
 * encoder it loads as a file of its own (src/export/load-encoder.classic.ts) each carry one.
 */
const FX_ERROR = Symbol.for('fx-sdk.FxError');

/**
 * The one error class of the SDK. Callers branch on `code`, never on the message; `Code` narrows it to one code
 * table (`FxError<RenderErrorCode>`, `FxError<RuntimeErrorCode>`), and {@link isFxError} with a code narrows to it.
 * `issues` carries the itemised problems when an error summarises several (strict validation, lint).
 */
export class FxError<Code extends string = string> extends Error {
  override name = 'FxError';
  readonly code: Code;
  readonly issues: readonly Issue[];
  readonly status: number | undefined;

  constructor(
    code: Code,
    message: string,
    options: { cause?: unknown; issues?: readonly Issue[]; status?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = options.issues ?? [];
    this.status = options.status;
    Object.defineProperty(this, FX_ERROR, { value: true });
  }
}

/**
 * True for an {@link FxError}; given a code, only for that code, and the type narrows to it:
 * `if (isFxError(error, 'composition_not_found')) error.code // 'composition_not_found'`.
 */
export function isFxError<Code extends string>(value: unknown, code: Code): value is FxError<Code>;
export function isFxError(value: unknown): value is FxError;
export function isFxError(value: unknown, code?: string): value is FxError {
  const marked = value instanceof FxError || (typeof value === 'object' && value !== null && FX_ERROR in value);
  return marked && (code === undefined || (value as FxError).code === code);
}
