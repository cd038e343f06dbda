/** `fx service backup <folder>`: an embedded service's data, while it runs (`fx service restore` reads it back). */
import { backupService, refuseUnlessEmbedded } from '../../service/backup/backup.js';
import { ServiceRole } from '../../service/config.js';
import { readServiceSettings } from '../../service/settings/read.js';
import type { Command, CommandContext } from '../command.js';
import { OutputEvent } from '../output.js';
import { serviceEnvironment, STORE_FLAGS } from './service.js';

export const WHERE = 'docs/deploy.md ("Backup") has the recipe for PostgreSQL and a bucket.';

export const command: Command = {
  name: 'service backup',
  summary:
    "Copies an embedded service's database (SQLite's online backup), stored files and keys into a new folder, while it runs.",
  args: '<folder>',
  positionals: { min: 1, max: 1 },
  flags: { ...STORE_FLAGS },
  notes: ['Restore with `fx service restore <folder> --data-dir <new folder>`, then start the service there.', WHERE],
  run: async (context) => {
    const { dataDir } = embeddedSettings(context);
    const manifest = await backupService(dataDir, context.positionals[0]!);
    context.out.event(OutputEvent.result, { folder: context.positionals[0], ...manifest });
    context.out.note(
      `backed up ${dataDir} into ${context.positionals[0]}: the database and ${manifest.files} files (${manifest.bytes} bytes)`,
    );
  },
};

/** The data folder, once the settings say the service is embedded (its records in SQLite, its files on disk). */
export function embeddedSettings(context: CommandContext) {
  const { values, s3 } = readServiceSettings(serviceEnvironment(ServiceRole.embedded, context));
  refuseUnlessEmbedded({ databaseUrl: values.databaseUrl, bucket: s3?.bucket });
  return values;
}
