/** A database setting or state the service cannot start with; `code` is stable. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
  constructor(
    readonly code: 'database_url_invalid' | 'database_schema_newer' | 'database_required',
    message: string,
  ) {
    super(message);
  }
}
