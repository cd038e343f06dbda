/** Stored password hashes of accounts; implementations: `password-records.sqlite.ts`, `.postgres.ts`. */
export interface PasswordRecords {
  /** The stored hash of the account's password, if it has one. */
  hashOf(accountId: string): Promise<string | undefined>;
  save(accountId: string, hash: string, now: number): Promise<void>;
}
