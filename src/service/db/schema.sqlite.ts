/**
 * SQLite schema of the reference service and its authorization server; `IF NOT EXISTS` everywhere so opening is
 * also migrating (v1). The PostgreSQL schema is `migrations.postgres.ts`.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  webhook_secret TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  hash TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_used_at INTEGER
);

CREATE TABLE IF NOT EXISTS assets (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  composition TEXT NOT NULL,
  file_count INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS renders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  credential_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'completed', 'failed')),
  request TEXT NOT NULL,
  warnings TEXT NOT NULL,
  project_key TEXT NOT NULL,
  stage TEXT NOT NULL DEFAULT 'queued',
  frames_done INTEGER NOT NULL DEFAULT 0,
  frames_total INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  failure_code TEXT,
  failure_message TEXT,
  video_key TEXT,
  thumbnail_key TEXT,
  output TEXT,
  credits REAL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS renders_by_account ON renders (account_id, seq);
CREATE INDEX IF NOT EXISTS renders_by_status ON renders (status, seq);

CREATE TABLE IF NOT EXISTS idempotency_keys (
  credential_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  -- the holding request's own random id (idempotency-store.ts, IdempotencyHold)
  claim TEXT,
  PRIMARY KEY (credential_id, endpoint, key)
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  render_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event_time INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  delivered_at INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);

-- the authorization server (src/service/oauth)
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

-- chunked renders (src/service/jobs/chunk-job.ts)
CREATE TABLE IF NOT EXISTS render_chunks (
  render_id TEXT NOT NULL,
  -- the render attempt that planned the chunk
  render_attempt INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  frame_from INTEGER NOT NULL,
  frame_to INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  frames_done INTEGER NOT NULL DEFAULT 0,
  file_key TEXT,
  result TEXT,
  worker TEXT,
  PRIMARY KEY (render_id, idx)
);
`;

/**
 * Columns added after their table first shipped: `CREATE TABLE IF NOT EXISTS` leaves an older database's table as
 * it was, so opening adds what it lacks (PostgreSQL gets them as migrations, `migrations.postgres.ts`).
 */
export const ADDED_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'idempotency_keys', column: 'claim', definition: 'TEXT' },
];
