/** `fx service restore <folder>`: a backup of `fx service backup` into a new data folder. */
import { restoreService } from '../../service/backup/backup.js';
import type { Command } from '../command.js';
import { OutputEvent } from '../output.js';
import { STORE_FLAGS } from './service.js';
import { embeddedSettings, WHERE } from './service-backup.js';

export const command: Command = {
  name: 'service restore',
  summary: 'Restores a backup made by `fx service backup` into a new or empty data folder.',
  args: '<folder>',
  positionals: { min: 1, max: 1 },
  flags: { ...STORE_FLAGS },
  notes: [
    'The data folder is --data-dir (default $FX_SERVICE_DATA_DIR or .fx/service); it must be new or empty.',
    WHERE,
  ],
  run: async (context) => {
    const { dataDir } = embeddedSettings(context);
    const manifest = await restoreService(context.positionals[0]!, dataDir);
    context.out.event(OutputEvent.result, { data_dir: dataDir, ...manifest });
    context.out.note(`restored the backup of ${manifest.createdAt} into ${dataDir}: start the service there`);
  },
};
