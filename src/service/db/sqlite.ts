import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseError, DatabaseErrorCode } from './errors.js';
import { SQLITE_MIGRATIONS, type SqliteMigration } from './migrations.sqlite.js';

export type Sqlite = Database.Database;

export interface OpenDatabaseOptions {
  /** Default {@link SQLITE_MIGRATIONS}; tests pass others. */
  readonly migrations?: readonly SqliteMigration[];
  /** Told once when this open upgraded the schema (`database schema upgraded`, with the versions). */
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
}

/** How long a write waits for another connection's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating when needed) the service database and brings its schema up to date: WAL so readers never wait
 * for the job writer, a busy timeout so the admin command can write while the service runs, foreign keys on. A
 * database whose schema is newer than this code is refused (`database_schema_newer`) before anything is written.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Sqlite {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const migrations = options.migrations ?? SQLITE_MIGRATIONS;
    // Read first: a newer database is refused before the journal mode (a write) is set.
    checkNotNewer(schemaVersion(db), migrations);
    switchToWal(db);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const applied = migrateSqlite(db, migrations);
    if (applied.length > 0)
      options.log?.('database schema upgraded', { file, from: applied[0]! - 1, to: applied.at(-1), applied });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Sets WAL. The switch needs the database to itself, and SQLite answers SQLITE_BUSY at once, without the busy
 * timeout, when another process opening it at the same moment holds a read lock and wants the same (waiting could
 * deadlock both): so wait a little and ask again, for as long as the busy timeout would have waited.
 */
function switchToWal(db: Sqlite): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
    }
  }
}

/** The schema version the database says it has (`PRAGMA user_version`; 0 for a new or unversioned one). */
export const schemaVersion = (db: Sqlite): number => db.pragma('user_version', { simple: true }) as number;

const newestOf = (migrations: readonly SqliteMigration[]) =>
  Math.max(0, ...migrations.map((migration) => migration.version));

function checkNotNewer(version: number, migrations: readonly SqliteMigration[]): void {
  const newest = newestOf(migrations);
  if (version > newest)
    throw new DatabaseError(
      DatabaseErrorCode.schemaNewer,
      `the database has schema version ${version}, newer than this service knows (${newest}); run the newer service`,
    );
}

/**
 * Applies the migrations the database lacks, in order, and records the newest version, in one IMMEDIATE
 * transaction: a second process opening at the same time waits for the first (the busy timeout), then reads the
 * version again and finds nothing to do. An up-to-date database is only read. A failing migration rolls back
 * whole. Returns the versions applied.
 */
export function migrateSqlite(db: Sqlite, migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS): number[] {
  const pending = (version: number) => migrations.filter((migration) => migration.version > version);
  if (pending(schemaVersion(db)).length === 0) return [];
  return db
    .transaction(() => {
      const version = schemaVersion(db);
      checkNotNewer(version, migrations);
      const todo = [...pending(version)].sort((a, b) => a.version - b.version);
      for (const migration of todo) {
        if (typeof migration.apply === 'string') db.exec(migration.apply);
        else migration.apply(db);
      }
      if (todo.length > 0) db.pragma(`user_version = ${newestOf(migrations)}`);
      return todo.map((migration) => migration.version);
    })
    .immediate();
}
