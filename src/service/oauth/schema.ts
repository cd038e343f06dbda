/**
 * SQLite tables of the authorization server, next to the service's own in `service.db`; `IF NOT EXISTS` so
 * opening is also migrating, like db/schema.ts.
 */
export const OAUTH_SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_records (
  model TEXT NOT NULL,
  -- the record id, or the SHA-256 (hex) of it for bearer secrets (codes, refresh tokens)
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  user_code TEXT,
  -- epoch milliseconds; NULL never expires
  expires_at INTEGER,
  consumed_at INTEGER,
  PRIMARY KEY (model, id)
);
CREATE INDEX IF NOT EXISTS oauth_records_by_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS oauth_records_by_uid ON oauth_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS oauth_records_by_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS account_passwords (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  hash TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`;
