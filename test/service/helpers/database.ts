/**
 * The database the service tests run on: SQLite in each test's data folder (default), or PostgreSQL with
 * `FX_TEST_DATABASE=postgres` (npm run test:postgres): one throwaway cluster per test process, a fresh database for
 * every service a test starts; with `FX_TEST_STORAGE=s3` its files go to a fresh S3 bucket (helpers/storage.ts). Tests read and write rows through `openTestDb` with `?` placeholders on both.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DATABASE_URL_ENV } from '../../../src/service/db/open-stores.js';
import { PG_TYPES } from '../../../src/service/db/postgres.js';
import { DATABASE_FILE } from '../../../src/service/db/stores.sqlite.js';
import type { BlobStorage } from '../../../src/service/storage/blob-storage.js';
import type { S3Settings } from '../../../src/service/storage/s3-settings.js';
import { sharedPostgresCluster } from '../../fixtures/postgres-cluster.js';
import { newTestBucket, s3Env, testStorage } from './storage.js';

export const TEST_DATABASE_ENV = 'FX_TEST_DATABASE';
export const onPostgres = process.env[TEST_DATABASE_ENV] === 'postgres';

/** Where one service keeps its files and records; spread it into `createService` / `createOAuthServer`. */
export interface TestLocation {
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /** On S3 (helpers/storage.ts): the service's storage, over the bucket of `s3`. */
  readonly storage?: BlobStorage;
  readonly s3?: S3Settings;
}

/** A fresh data folder, on PostgreSQL a fresh database, on S3 a fresh bucket. */
export async function newTestLocation(prefix = 'fx-service-test-'): Promise<TestLocation> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const s3 = await newTestBucket();
  return {
    dataDir,
    ...(onPostgres ? { databaseUrl: await (await sharedPostgresCluster()).createDatabase() } : {}),
    ...(s3 ? { s3, storage: testStorage(dataDir, s3) } : {}),
  };
}

/** Removes the data folder (the database goes with the cluster). */
export const removeTestLocation = (location: TestLocation) => rm(location.dataDir, { recursive: true, force: true });

/** Environment for a child process (the admin command, a service process) to use the same database. */
export const childEnv = (location: TestLocation): NodeJS.ProcessEnv => ({
  ...process.env,
  ...(location.databaseUrl ? { [DATABASE_URL_ENV]: location.databaseUrl } : {}),
  ...s3Env(location.s3),
});

/** A connection of the test's own to a service's database. */
export interface TestDb {
  rows(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

/** `?` placeholders → `$1, $2, …` (the test statements hold no `?` in literals). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export async function openTestDb(location: TestLocation): Promise<TestDb> {
  if (location.databaseUrl) {
    const client = new pg.Client({ connectionString: location.databaseUrl, types: PG_TYPES });
    await client.connect();
    const rows = async (sql: string, ...params: unknown[]) => (await client.query(numbered(sql), params)).rows;
    return {
      rows,
      run: async (sql, ...params) => (await client.query(numbered(sql), params)).rowCount ?? 0,
      count: async (table) => Number((await rows(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n),
      close: () => client.end(),
    };
  }
  const db = new Database(join(location.dataDir, DATABASE_FILE));
  return {
    rows: async (sql, ...params) => db.prepare(sql).all(...params) as Record<string, unknown>[],
    run: async (sql, ...params) => db.prepare(sql).run(...params).changes,
    count: async (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    close: async () => {
      db.close();
    },
  };
}

/** A render's stored request, for tests that write render records straight into a store. */
export const RENDER_REQUEST = {
  asset_id: 'ast_x',
  url: null,
  page_url: null,
  composition: 'index.html',
  fps: 30,
  quality: 'draft',
  format: 'mp4',
  resolution: '1080p',
  aspect_ratio: '16:9',
  variables: {},
  strict_variables: false,
  allow_missing_files: false,
  callback_url: null,
  callback_id: null,
  time: null,
  thumbnail_time: null,
  range: null,
  loop: null,
  metadata: null,
} as const;
