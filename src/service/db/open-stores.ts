import { openPostgresStores } from './stores.postgres.js';
import { openSqliteStores } from './stores.sqlite.js';
import type { Stores } from './stores.js';

/** The environment variable of `databaseUrl` for `main.ts`, the admin command and `fx service`. */
export const DATABASE_URL_ENV = 'FX_SERVICE_DATABASE_URL';

export interface StoresLocation {
  /** Holds `service.db` when there is no `databaseUrl`. */
  readonly dataDir: string;
  /** `postgres://…`: the records live in that PostgreSQL database instead of SQLite. */
  readonly databaseUrl?: string | undefined;
  readonly now?: () => number;
  /** Operational log lines (a lost database connection, a schema upgraded). */
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
}

/** The stores of a service: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`. */
export async function openStores(location: StoresLocation): Promise<Stores> {
  return location.databaseUrl
    ? openPostgresStores(location.databaseUrl, location.now, { log: location.log })
    : openSqliteStores(location.dataDir, location.now, { log: location.log });
}
