import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ADDED_COLUMNS, SCHEMA } from './schema.sqlite.js';

export type Sqlite = Database.Database;

/**
 * Opens (creating when needed) the service database: WAL so readers never wait for the job writer, a busy
 * timeout so the admin command can write while the service runs, foreign keys on.
 */
export function openDatabase(file: string): Sqlite {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  addMissingColumns(db);
  return db;
}

/**
 * Adds the `ADDED_COLUMNS` an older database lacks. Only then a write transaction (two processes may open the
 * database at once; the second finds the columns there): an up-to-date database is only read.
 */
function addMissingColumns(db: Sqlite): void {
  const missing = () =>
    ADDED_COLUMNS.filter(
      ({ table, column }) =>
        !(db.pragma(`table_info(${table})`) as { name: string }[]).some(({ name }) => name === column),
    );
  if (missing().length === 0) return;
  db.transaction(() => {
    for (const { table, column, definition } of missing())
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }).immediate();
}
