// Where the PostgreSQL server programs live (Debian's postgresql package; setup.mjs installs it). The service's
// Postgres tests start a throwaway cluster with them (test/fixtures/postgres-cluster.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The folder holding initdb, pg_ctl and postgres: `FX_POSTGRES_BIN` if set, else Debian's newest version. */
export function postgresBinDir() {
  if (process.env.FX_POSTGRES_BIN) return process.env.FX_POSTGRES_BIN;
  const versions = existsSync(DEBIAN_ROOT)
    ? readdirSync(DEBIAN_ROOT)
        .filter((name) => existsSync(join(DEBIAN_ROOT, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length > 0 ? join(DEBIAN_ROOT, versions[0], 'bin') : undefined;
}
