/**
 * `fx service` (API and renders in one process), `fx service api` and `fx service worker`: the reference /v3
 * render service (src/service/main.ts, configured by its FX_SERVICE_* variables).
 */
import { ServiceRole } from '../../service/config.js';
import { DATABASE_URL_ENV } from '../../service/db/open-stores.js';
import { ROLE_ENV } from '../../service/main-defaults.js';
import { settingsHelp } from '../../service/settings/describe.js';
import { docsPath } from '../docs-path.js';
import { integerFlag } from '../args.js';
import { cliError, CliErrorCode } from '../errors.js';
import type { Command, CommandContext, Flags } from '../command.js';

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
/** The settings `role` reads, from the table (docs/service.md has it whole; `fx service check-config` checks them). */
const settingsOf = (role: ServiceRole) => [
  'Settings (environment variables; the flags above set theirs):',
  ...settingsHelp(role).map((line) => `  ${line}`),
  '',
  `Running it in production (systemd, containers, TLS, probes, backup, upgrade): ${docsPath('deploy.md')}`,
  `How it is built, every setting, the API and worker split: ${docsPath('service.md')}`,
  '',
];
/** Every flag of a service process, for `fx service check-config` (which checks any role's). */
export const SERVICE_FLAGS: Flags = { ...PORT, ...CONCURRENCY, ...STORE_FLAGS };
const SPLIT =
  'Any number of `fx service api` and `fx service worker` processes share one PostgreSQL database and one bucket (FX_SERVICE_S3_*) or data folder.';

const ROLES: Record<ServiceRole, { name: string; summary: string; flags: Flags; notes: string[] }> = {
  [ServiceRole.embedded]: {
    name: 'service',
    summary: 'Runs the reference /v3 render service on this machine (what `npm start` runs); Ctrl-C stops it.',
    flags: { ...PORT, ...CONCURRENCY, ...STORE_FLAGS },
    notes: [
      ...settingsOf(ServiceRole.embedded),
      'One process serves the API and renders; to split them, see `fx service api` and `fx service worker`.',
    ],
  },
  [ServiceRole.api]: {
    name: 'service api',
    summary: 'Serves the /v3 API and OAuth only, never renders (needs --database-url); Ctrl-C stops it.',
    flags: { ...PORT, ...STORE_FLAGS },
    notes: [...settingsOf(ServiceRole.api), SPLIT],
  },
  [ServiceRole.worker]: {
    name: 'service worker',
    summary:
      'Runs renders and sends webhooks only, no HTTP (needs --database-url); SIGTERM hands running renders back.',
    flags: { ...CONCURRENCY, ...STORE_FLAGS },
    notes: [
      ...settingsOf(ServiceRole.worker),
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

/**
 * The environment a service process of `role` gets from this one's and the flags (the flags set the variables of
 * their rows in the settings table); a flag out of range is a usage error naming the flag.
 */
export function serviceEnvironment(role: ServiceRole, context: CommandContext): NodeJS.ProcessEnv {
  const { values } = context;
  const env: NodeJS.ProcessEnv = { ...context.env, [ROLE_ENV]: role };
  if (values.port !== undefined) env.FX_SERVICE_PORT = String(integerFlag('port', values.port, 0, 65_535));
  if (values.concurrency !== undefined)
    env.FX_SERVICE_CONCURRENCY = String(integerFlag('concurrency', values.concurrency, 1, 64));
  if (values['data-dir'] !== undefined) env.FX_SERVICE_DATA_DIR = String(values['data-dir']);
  if (values['database-url'] !== undefined) env[DATABASE_URL_ENV] = String(values['database-url']);
  return env;
}

async function run(role: ServiceRole, context: CommandContext): Promise<number> {
  Object.assign(process.env, serviceEnvironment(role, context));
  if (role !== ServiceRole.embedded && !process.env[DATABASE_URL_ENV])
    throw cliError(
      CliErrorCode.flagInvalid,
      `"fx ${ROLES[role].name}" needs a PostgreSQL database shared with the other processes: pass "--database-url" or set ${DATABASE_URL_ENV}`,
    );
  await import('../../service/main.js');
  // main.ts owns the process from here (its own SIGINT/SIGTERM handlers stop the service and exit).
  return new Promise<number>(() => {});
}
