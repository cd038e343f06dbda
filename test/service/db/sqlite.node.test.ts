// openDatabase (src/service/db/sqlite.ts): versioned migrations (migrations.sqlite.ts) in PRAGMA user_version; an
// unversioned database of every shape that shipped upgraded keeping its rows, a newer one refused untouched.
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DatabaseError, DatabaseErrorCode } from '../../../src/service/db/errors.js';
import { SQLITE_MIGRATIONS } from '../../../src/service/db/migrations.sqlite.js';
import { openDatabase, schemaVersion, type Sqlite } from '../../../src/service/db/sqlite.js';
import { tempDir } from '../../render/helpers.js';

const NEWEST = Math.max(...SQLITE_MIGRATIONS.map(({ version }) => version));
const SQLITE_MODULE = fileURLToPath(new URL('../../../src/service/db/sqlite.ts', import.meta.url));

// The schema as it shipped before versions (schema.sqlite.ts of d31a722 and 73cd781): the service's tables, then
// the OAuth ones beside them; no `render_chunks`, no `idempotency_keys.claim`.
const SERVICE_TABLES = `
CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, webhook_secret TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE TABLE api_keys (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), hash TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER, last_used_at INTEGER);
CREATE TABLE assets (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), composition TEXT NOT NULL,
  file_count INTEGER NOT NULL, size_bytes INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE renders (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id), credential_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'completed', 'failed')), request TEXT NOT NULL,
  warnings TEXT NOT NULL, project_key TEXT NOT NULL, stage TEXT NOT NULL DEFAULT 'queued',
  frames_done INTEGER NOT NULL DEFAULT 0, frames_total INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER, failure_code TEXT, failure_message TEXT,
  video_key TEXT, thumbnail_key TEXT, output TEXT, credits REAL, deleted_at INTEGER);
CREATE INDEX renders_by_account ON renders (account_id, seq);
CREATE INDEX renders_by_status ON renders (status, seq);
CREATE TABLE idempotency_keys (credential_id TEXT NOT NULL, endpoint TEXT NOT NULL, key TEXT NOT NULL,
  request_hash TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')), status INTEGER, body TEXT,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (credential_id, endpoint, key));
CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY, render_id TEXT NOT NULL, account_id TEXT NOT NULL,
  url TEXT NOT NULL, event_type TEXT NOT NULL, event_time INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, last_status INTEGER, last_error TEXT, delivered_at INTEGER);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
`;
const OAUTH_TABLES = `
CREATE TABLE oauth_records (model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, grant_id TEXT, uid TEXT,
  user_code TEXT, expires_at INTEGER, consumed_at INTEGER, PRIMARY KEY (model, id));
CREATE INDEX oauth_records_by_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_by_uid ON oauth_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_by_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE account_passwords (account_id TEXT PRIMARY KEY REFERENCES accounts(id), hash TEXT NOT NULL,
  updated_at INTEGER NOT NULL);
`;
const CHUNKS_TABLE = `
CREATE TABLE render_chunks (render_id TEXT NOT NULL, render_attempt INTEGER NOT NULL, idx INTEGER NOT NULL,
  frame_from INTEGER NOT NULL, frame_to INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'done', 'failed')), attempts INTEGER NOT NULL DEFAULT 0,
  frames_done INTEGER NOT NULL DEFAULT 0, file_key TEXT, result TEXT, worker TEXT, PRIMARY KEY (render_id, idx));
`;
const CLAIM_COLUMN = 'ALTER TABLE idempotency_keys ADD COLUMN claim TEXT;';
const ROWS = `
INSERT INTO accounts VALUES ('acc_1', 'me', 'whsec_x', 1);
INSERT INTO renders (id, account_id, credential_id, status, request, warnings, project_key, created_at, finished_at,
  video_key, thumbnail_key) VALUES ('rnd_1', 'acc_1', 'key_1', 'completed', '{}', '[]', 'assets/ast_1', 2, 3,
  'renders/rnd_1/video.mp4', 'renders/rnd_1/thumbnail.jpg');
INSERT INTO idempotency_keys (credential_id, endpoint, key, request_hash, state, created_at, expires_at)
  VALUES ('key_1', 'POST /v3/renders', 'k', 'h', 'in_flight', 1, 2);
`;

/** Every shape of `service.db` that shipped before versions, oldest first. */
const SHIPPED: readonly { name: string; ddl: string }[] = [
  { name: 'the service tables only (before the OAuth tables joined service.db)', ddl: SERVICE_TABLES },
  { name: 'the previous schema, without render_chunks and claim', ddl: SERVICE_TABLES + OAUTH_TABLES },
  { name: 'render_chunks without claim', ddl: SERVICE_TABLES + OAUTH_TABLES + CHUNKS_TABLE },
  { name: 'render_chunks and claim', ddl: SERVICE_TABLES + OAUTH_TABLES + CHUNKS_TABLE + CLAIM_COLUMN },
];

/** Tables, their columns and indexes, as SQLite reports them: what two databases must agree on. */
function shape(db: Sqlite) {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return {
    tables: Object.fromEntries(
      tables.map((table) => [
        table,
        (db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[])
          .map(({ name, type, notnull, pk }) => `${name} ${type}${notnull ? ' NOT NULL' : ''}${pk ? ' PK' : ''}`)
          .sort(),
      ]),
    ),
    indexes: db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all(),
  };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function withFile(run: (file: string, dir: string) => Promise<void>) {
  const dir = await tempDir('fx-sqlite-');
  try {
    await run(join(dir.path, 'service.db'), dir.path);
  } finally {
    await dir.cleanup();
  }
}

describe('openDatabase (SQLite): schema versions', () => {
  test('a new database gets every migration and the newest version', () =>
    withFile(async (file) => {
      const logged: unknown[] = [];
      const db = openDatabase(file, { log: (message, details) => logged.push({ message, ...details }) });
      assert.equal(schemaVersion(db), NEWEST);
      assert.ok(shape(db).tables['render_chunks']);
      db.close();
      assert.deepEqual(logged, [
        {
          message: 'database schema upgraded',
          file,
          from: 0,
          to: NEWEST,
          applied: SQLITE_MIGRATIONS.map(({ version }) => version),
        },
      ]);
    }));

  for (const { name, ddl } of SHIPPED)
    test(`an unversioned database (${name}) is upgraded, keeping its rows`, () =>
      withFile(async (file, dir) => {
        const fresh = openDatabase(join(dir, 'fresh.db'));
        const expected = shape(fresh);
        fresh.close();
        const old = new Database(file);
        old.exec(ddl);
        old.exec(ROWS);
        assert.equal(schemaVersion(old), 0);
        old.close();

        const db = openDatabase(file);
        assert.equal(schemaVersion(db), NEWEST);
        assert.deepEqual(shape(db), expected);
        assert.deepEqual(db.prepare('SELECT id, status, video_key, deleted_at FROM renders').all(), [
          { id: 'rnd_1', status: 'completed', video_key: 'renders/rnd_1/video.mp4', deleted_at: null },
        ]);
        assert.deepEqual(db.prepare('SELECT key, state, claim FROM idempotency_keys').all(), [
          { key: 'k', state: 'in_flight', claim: null },
        ]);
        assert.deepEqual(db.prepare('SELECT id, name FROM accounts').all(), [{ id: 'acc_1', name: 'me' }]);
        db.close();
      }));

  test('a database of an earlier version gets only the migrations after it, keeping its rows', () =>
    withFile(async (file) => {
      const earlier = SQLITE_MIGRATIONS.filter(({ version }) => version <= 3);
      const old = openDatabase(file, { migrations: earlier });
      assert.equal(schemaVersion(old), 3);
      old.exec(ROWS);
      old.close();
      const logged: unknown[] = [];
      const db = openDatabase(file, { log: (_message, details) => logged.push(details?.['applied']) });
      assert.deepEqual(logged, [SQLITE_MIGRATIONS.filter(({ version }) => version > 3).map(({ version }) => version)]);
      assert.equal(schemaVersion(db), NEWEST);
      assert.deepEqual(db.prepare('SELECT id, files_expired_at FROM renders').all(), [
        { id: 'rnd_1', files_expired_at: null },
      ]);
      db.close();
    }));

  test('reopening an up-to-date database writes nothing', () =>
    withFile(async (file) => {
      openDatabase(file).close();
      const before = sha256(file);
      const logged: string[] = [];
      const db = openDatabase(file, { log: (message) => logged.push(message) });
      assert.equal(schemaVersion(db), NEWEST);
      db.close();
      assert.equal(sha256(file), before);
      assert.deepEqual(logged, []);
    }));

  test('a database newer than the code is refused with database_schema_newer before anything is written', () =>
    withFile(async (file) => {
      // Left in the default rollback journal: opening it as the service would turns it to WAL, a write.
      const newer = new Database(file);
      newer.exec(SERVICE_TABLES);
      newer.pragma(`user_version = ${NEWEST + 1}`);
      newer.close();
      const before = sha256(file);
      assert.throws(
        () => openDatabase(file),
        (error: unknown) =>
          error instanceof DatabaseError &&
          error.code === DatabaseErrorCode.schemaNewer &&
          error.message.includes(`version ${NEWEST + 1}`),
      );
      assert.equal(sha256(file), before);
      assert.equal(existsSync(`${file}-wal`), false);
      const again = new Database(file, { readonly: true });
      assert.equal(again.pragma('journal_mode', { simple: true }), 'delete');
      assert.equal(schemaVersion(again), NEWEST + 1);
      again.close();
    }));

  test('a failing migration rolls back whole: neither its changes nor its version stay', () =>
    withFile(async (file) => {
      openDatabase(file).close();
      const broken = [
        ...SQLITE_MIGRATIONS,
        { version: NEWEST + 1, name: 'half', apply: 'CREATE TABLE half (id TEXT); SELECT no_such_function();' },
      ];
      assert.throws(() => openDatabase(file, { migrations: broken }), /no such function/);
      const db = openDatabase(file);
      assert.equal(schemaVersion(db), NEWEST);
      assert.equal(shape(db).tables['half'], undefined);
      db.close();
    }));

  test('processes opening one database at once: one applies the migrations, the others find them done', () =>
    withFile(async (file, dir) => {
      // An unversioned database of the previous schema, so the migrations have work to do.
      const old = new Database(file);
      old.exec(SERVICE_TABLES + OAUTH_TABLES);
      old.exec(ROWS);
      old.close();
      const script = join(dir, 'open.mts');
      await writeFile(
        script,
        `import { openDatabase } from ${JSON.stringify(pathToFileURL(SQLITE_MODULE).href)};
const [file, start] = process.argv.slice(2);
while (Date.now() < Number(start));
let applied = [];
openDatabase(file, { log: (_message, details) => (applied = details.applied) }).close();
console.log(JSON.stringify(applied));
`,
      );
      const run = promisify(execFile);
      const start = String(Date.now() + 3000);
      const outputs = await Promise.all(
        Array.from({ length: 3 }, () => run(process.execPath, ['--import', 'tsx', script, file, start])),
      );
      const applied = outputs.map(({ stdout }) => JSON.parse(stdout) as number[]);
      const all = SQLITE_MIGRATIONS.map(({ version }) => version);
      assert.deepEqual(
        applied.filter((versions) => versions.length > 0),
        [all],
        JSON.stringify(applied),
      );
      const db = openDatabase(file);
      assert.equal(schemaVersion(db), NEWEST);
      assert.equal(db.prepare('SELECT COUNT(*) FROM renders').pluck().get(), 1);
      db.close();
    }));
});
