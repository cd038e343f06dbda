import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCHEMA } from './schema.sqlite.js';

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
  return db;
}
