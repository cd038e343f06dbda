import { openSqliteStores } from './stores.sqlite.js';
import type { Stores } from './stores.js';

export interface StoresLocation {
  /** Holds `service.db` when there is no `databaseUrl`. */
  readonly dataDir: string;
  readonly now?: () => number;
}

/** The stores of a service: SQLite in `dataDir`. */
export async function openStores(location: StoresLocation): Promise<Stores> {
  return openSqliteStores(location.dataDir, location.now);
}
