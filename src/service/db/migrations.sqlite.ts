import type Database from 'better-sqlite3';

type Sqlite = Database.Database;

/**
 * One schema change of the SQLite database; the version is kept in the database's `PRAGMA user_version`. Append new
 * ones with the next version; never edit one that has shipped. A version means the same change as PostgreSQL's
 * (`migrations.postgres.ts`) of that number.
 */
export interface SqliteMigration {
  readonly version: number;
  readonly name: string;
  /** SQL, or a function where the change depends on what an unversioned database already has. */
  readonly apply: string | ((db: Sqlite) => void);
}

const hasColumn = (db: Sqlite, table: string, column: string) =>
  (db.pragma(`table_info(${table})`) as { name: string }[]).some(({ name }) => name === column);

/**
 * The SQLite schema of the service and its authorization server, as versions (the same tables and columns as
 * PostgreSQL's, times in epoch milliseconds as INTEGER). Databases made before versions existed (`user_version` 0)
 * have some of versions 1–3 already: every shape that shipped (without the OAuth tables, without `render_chunks`,
 * without `idempotency_keys.claim`), so those three create only what is missing (`IF NOT EXISTS`, a column
 * checked first). From version 4 on, a migration runs on a database known to be at the version before it.
 */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'service and authorization server tables',
    apply: `
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
`,
  },
  {
    version: 2,
    name: 'chunks of chunked renders',
    apply: `
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
`,
  },
  {
    version: 3,
    name: 'idempotency keys name the request holding them',
    apply: (db) => {
      // the holding request's own random id (idempotency-store.ts, IdempotencyHold)
      if (!hasColumn(db, 'idempotency_keys', 'claim')) db.exec('ALTER TABLE idempotency_keys ADD COLUMN claim TEXT');
    },
  },
  {
    version: 4,
    name: "files kept by retention: when a render's files expired and were removed, an asset's last use and removal",
    apply: `
ALTER TABLE renders ADD COLUMN files_expired_at INTEGER;
ALTER TABLE renders ADD COLUMN files_removed_at INTEGER;
ALTER TABLE assets ADD COLUMN last_used_at INTEGER;
ALTER TABLE assets ADD COLUMN files_removed_at INTEGER;
UPDATE assets SET last_used_at = created_at;
CREATE INDEX renders_files_kept ON renders (finished_at) WHERE files_expired_at IS NULL AND deleted_at IS NULL;
CREATE INDEX renders_files_expired ON renders (files_expired_at) WHERE files_removed_at IS NULL AND files_expired_at IS NOT NULL;
CREATE INDEX renders_files_deleted ON renders (deleted_at) WHERE files_removed_at IS NULL AND deleted_at IS NOT NULL;
CREATE INDEX renders_by_project ON renders (project_key);
CREATE INDEX assets_files_kept ON assets (last_used_at) WHERE files_removed_at IS NULL;
`,
  },
];
