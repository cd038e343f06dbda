/**
 * `fx service` (API and renders in one process), `fx service api` and `fx service worker`: the reference /v3
 * render service (src/service/main.ts, configured by its FX_SERVICE_* variables).
 */
import { ServiceRole } from '../service/config.js';
import { DATABASE_URL_ENV } from '../service/db/open-stores.js';
import { ROLE_ENV } from '../service/main-defaults.js';
import { integerFlag } from './args.js';
import { cliError, CliErrorCode } from './errors.js';
import type { Command, CommandContext, Flags } from './command.js';

const PORT: Flags = { port: { type: 'string', value: '<n>', description: 'port (default $FX_SERVICE_PORT or 8787)' } };
const CONCURRENCY: Flags = {
  concurrency: {
    type: 'string',
    value: '<n>',
    description: 'renders run at once by this process (default $FX_SERVICE_CONCURRENCY or 1)',
  },
};
/** Where the service keeps its records: every `fx service` command takes these (create-key too). */
export const STORE_FLAGS: Flags = {
  'data-dir': {
    type: 'string',
    value: '<dir>',
    description: 'data folder (default $FX_SERVICE_DATA_DIR or .fx/service)',
  },
  'database-url': {
    type: 'string',
    value: '<url>',
    description: `postgres:// database instead of SQLite (default $${DATABASE_URL_ENV})`,
  },
};
const SETTINGS =
  'Other settings: FX_SERVICE_HOST, FX_SERVICE_PUBLIC_URL, FX_SERVICE_OAUTH_*, FX_SERVICE_S3_*, FX_SERVICE_CHUNK_* (see docs/service.md).';
const SPLIT =
  'Any number of `fx service api` and `fx service worker` processes share one PostgreSQL database and one bucket (FX_SERVICE_S3_*) or data folder.';

const ROLES: Record<ServiceRole, { name: string; summary: string; flags: Flags; notes: string[] }> = {
  [ServiceRole.embedded]: {
    name: 'service',
    summary: 'Runs the reference /v3 render service on this machine (what `npm start` runs); Ctrl-C stops it.',
    flags: { ...PORT, ...CONCURRENCY, ...STORE_FLAGS },
    notes: [
      SETTINGS,
      'One process serves the API and renders; to split them, see `fx service api` and `fx service worker`.',
    ],
  },
  [ServiceRole.api]: {
    name: 'service api',
    summary: 'Serves the /v3 API and OAuth only, never renders (needs --database-url); Ctrl-C stops it.',
    flags: { ...PORT, ...STORE_FLAGS },
    notes: [SETTINGS, SPLIT],
  },
  [ServiceRole.worker]: {
    name: 'service worker',
    summary:
      'Runs renders and sends webhooks only, no HTTP (needs --database-url); SIGTERM hands running renders back.',
    flags: { ...CONCURRENCY, ...STORE_FLAGS },
    notes: [
      SETTINGS,
      SPLIT,
      'Set FX_SERVICE_PUBLIC_URL to the API origin: webhooks carry links to it.',
      'A worker killed without SIGTERM gives its renders back after the job lease (60 s) to another worker.',
    ],
  },
};

/** The command of one role; main.ts reads its settings from the environment, the flags are shorthands. */
export function serviceCommand(role: ServiceRole): Command {
  const { name, summary, flags, notes } = ROLES[role];
  return { name, summary, flags, notes, run: (context) => run(role, context) };
}

export const command = serviceCommand(ServiceRole.embedded);

async function run(role: ServiceRole, context: CommandContext): Promise<number> {
  const { values } = context;
  process.env[ROLE_ENV] = role;
  if (values.port !== undefined) process.env.FX_SERVICE_PORT = String(integerFlag('port', values.port, 0, 65_535));
  if (values.concurrency !== undefined)
    process.env.FX_SERVICE_CONCURRENCY = String(integerFlag('concurrency', values.concurrency, 1, 64));
  if (values['data-dir'] !== undefined) process.env.FX_SERVICE_DATA_DIR = String(values['data-dir']);
  if (values['database-url'] !== undefined) process.env[DATABASE_URL_ENV] = String(values['database-url']);
  if (role !== ServiceRole.embedded && !process.env[DATABASE_URL_ENV])
    throw cliError(
      CliErrorCode.flagInvalid,
      `"fx ${ROLES[role].name}" needs a PostgreSQL database shared with the other processes: pass "--database-url" or set ${DATABASE_URL_ENV}`,
    );
  await import('../service/main.js');
  // main.ts owns the process from here (its own SIGINT/SIGTERM handlers stop the service and exit).
  return new Promise<number>(() => {});
}
