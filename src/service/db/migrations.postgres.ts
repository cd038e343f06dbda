import type pg from 'pg';
import { DatabaseError, DatabaseErrorCode } from './errors.js';

/** One schema change. Append new ones with the next version; never edit one that has shipped. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The PostgreSQL schema, as versions; the same tables and columns as the SQLite schema (`migrations.sqlite.ts`), with
 * epoch-millisecond times in BIGINT, JSON documents as TEXT (read by the same code as SQLite's) and `seq` an
 * identity column.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'service and authorization server tables',
    sql: `
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  webhook_secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  hash TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT
);

CREATE TABLE assets (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  composition TEXT NOT NULL,
  file_count INTEGER NOT NULL,
  size_bytes BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE renders (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  failure_code TEXT,
  failure_message TEXT,
  video_key TEXT,
  thumbnail_key TEXT,
  output TEXT,
  credits DOUBLE PRECISION,
  deleted_at BIGINT
);
CREATE INDEX renders_by_account ON renders (account_id, seq);
CREATE INDEX renders_by_status ON renders (status, seq);

CREATE TABLE idempotency_keys (
  credential_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  status INTEGER,
  body TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (credential_id, endpoint, key)
);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  render_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event_time BIGINT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  delivered_at BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);

CREATE TABLE oauth_records (
  model TEXT NOT NULL,
  -- the record id, or the SHA-256 (hex) of it for bearer secrets (codes, refresh tokens)
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  user_code TEXT,
  -- epoch milliseconds; NULL never expires
  expires_at BIGINT,
  consumed_at BIGINT,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_records_by_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_by_uid ON oauth_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_by_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE account_passwords (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  hash TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'chunks of chunked renders',
    sql: `
CREATE TABLE render_chunks (
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
    sql: `
ALTER TABLE idempotency_keys ADD COLUMN claim TEXT;
`,
  },
  {
    version: 4,
    name: "files kept by retention: when a render's files expired and were removed, an asset's last use and removal",
    sql: `
ALTER TABLE renders ADD COLUMN files_expired_at BIGINT;
ALTER TABLE renders ADD COLUMN files_removed_at BIGINT;
ALTER TABLE assets ADD COLUMN last_used_at BIGINT;
ALTER TABLE assets ADD COLUMN files_removed_at BIGINT;
UPDATE assets SET last_used_at = created_at;
CREATE INDEX renders_files_kept ON renders (finished_at) WHERE files_expired_at IS NULL AND deleted_at IS NULL;
CREATE INDEX renders_files_expired ON renders (files_expired_at) WHERE files_removed_at IS NULL AND files_expired_at IS NOT NULL;
CREATE INDEX renders_files_deleted ON renders (deleted_at) WHERE files_removed_at IS NULL AND deleted_at IS NOT NULL;
CREATE INDEX renders_by_project ON renders (project_key);
CREATE INDEX assets_files_kept ON assets (last_used_at) WHERE files_removed_at IS NULL;
`,
  },
];

/** Key of the advisory lock that serialises migrations of processes starting at the same time. */
const MIGRATION_LOCK = 0x66785f6d; // "fx_m"

/**
 * Brings the database up to the newest version: in one transaction, under an advisory lock, applies every
 * migration not yet in `schema_migrations` and records it there. A second run (or a second process) finds them
 * all recorded and changes nothing. Returns the versions it applied.
 */
export async function migrate(
  pool: Pick<pg.Pool, 'connect'>,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...migrations.map((migration) => migration.version));
    const unknown = [...applied].filter((version) => version > newest);
    if (unknown.length > 0)
      throw new DatabaseError(
        DatabaseErrorCode.schemaNewer,
        `the database has schema version ${Math.max(...unknown)}, newer than this service knows (${newest}); run the newer service`,
      );
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    return pending.map((migration) => migration.version);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
