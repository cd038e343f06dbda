import { join } from 'node:path';
import { openDatabase, type Sqlite } from '../db/sqlite.js';
import { DATABASE_FILE } from '../service.js';
import { OAUTH_SCHEMA } from './schema.js';

/** Adds the authorization server's tables to an open service database (idempotent). */
export function ensureOAuthSchema(db: Sqlite): Sqlite {
  db.exec(OAUTH_SCHEMA);
  return db;
}

/** The service database of `dataDir` with the authorization server's tables. */
export function openOAuthDatabase(dataDir: string): Sqlite {
  return ensureOAuthSchema(openDatabase(join(dataDir, DATABASE_FILE)));
}
