/** Codes of {@link DatabaseError}. */
export const DatabaseErrorCode = {
  urlInvalid: 'database_url_invalid',
  schemaNewer: 'database_schema_newer',
  required: 'database_required',
  commitOutcomeUnknown: 'commit_outcome_unknown',
} as const;
export type DatabaseErrorCode = (typeof DatabaseErrorCode)[keyof typeof DatabaseErrorCode];

/**
 * A database setting or state the service cannot start with, or (`commit_outcome_unknown`) a transaction whose
 * COMMIT lost its connection and whose outcome the server could not be asked: its work may or may not have landed,
 * so nothing it wrote may be undone and nothing it did may be repeated. `code` is stable.
 */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
  constructor(
    readonly code: DatabaseErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const isCommitOutcomeUnknown = (error: unknown): boolean =>
  error instanceof DatabaseError && error.code === DatabaseErrorCode.commitOutcomeUnknown;
