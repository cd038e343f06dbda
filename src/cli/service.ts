/** `fx service`: the reference /v3 render service (src/service/main.ts, configured by its FX_SERVICE_* variables). */
import { integerFlag } from './args.js';
import type { Command, CommandContext } from './command.js';

export const command: Command = {
  name: 'service',
  summary: 'Runs the reference /v3 render service on this machine (what `npm start` runs); Ctrl-C stops it.',
  flags: {
    port: { type: 'string', value: '<n>', description: 'port (default $FX_SERVICE_PORT or 8787)' },
    'data-dir': {
      type: 'string',
      value: '<dir>',
      description: 'data folder (default $FX_SERVICE_DATA_DIR or .fx/service)',
    },
  },
  notes: [
    'Other settings: FX_SERVICE_DATABASE_URL (PostgreSQL instead of SQLite), FX_SERVICE_HOST, FX_SERVICE_PUBLIC_URL, FX_SERVICE_CONCURRENCY, FX_SERVICE_OAUTH_*, FX_SERVICE_S3_* (see docs/service.md).',
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  // main.ts reads its settings from the environment; the flags are shorthands for two of them.
  if (context.values.port !== undefined)
    process.env.FX_SERVICE_PORT = String(integerFlag('port', context.values.port, 0, 65_535));
  if (context.values['data-dir'] !== undefined) process.env.FX_SERVICE_DATA_DIR = String(context.values['data-dir']);
  await import('../service/main.js');
  // main.ts owns the process from here (its own SIGINT/SIGTERM handlers stop the service and exit).
  return new Promise<number>(() => {});
}
