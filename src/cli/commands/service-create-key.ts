/** `fx service create-key --account <name>`: a new API key in the service's data folder, printed once. */
import { createApiKey } from '../../service/admin-commands.js';
import { DATABASE_URL_ENV, openStores } from '../../service/db/open-stores.js';
import { DEFAULT_DATA_DIR } from '../../service/main-defaults.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { STORE_FLAGS } from './service.js';
import { OutputEvent } from '../output.js';

export const command: Command = {
  name: 'service create-key',
  summary:
    'Creates an API key for an account (created when missing) in the service data folder; the key is shown once.',
  flags: {
    account: { type: 'string', value: '<name>', description: 'the account (required)' },
    ...STORE_FLAGS,
  },
  notes: ['Then: fx auth login --api-key (paste it), or export CLOUD_API_KEY=<key>.'],
  run,
};

/** The service's records, where its flags and environment say (the data folder's SQLite, or PostgreSQL). */
export function openServiceStores(context: CommandContext) {
  return openStores({
    dataDir: stringFlag(context, 'data-dir') ?? context.env.FX_SERVICE_DATA_DIR ?? DEFAULT_DATA_DIR,
    databaseUrl: stringFlag(context, 'database-url') ?? context.env[DATABASE_URL_ENV],
  });
}

async function run(context: CommandContext): Promise<void> {
  const account = stringFlag(context, 'account');
  if (!account) throw cliError(CliErrorCode.flagInvalid, '"--account" is required');
  const stores = await openServiceStores(context);
  try {
    const created = await createApiKey(stores, account);
    context.out.event(OutputEvent.result, {
      api_key: created.key,
      key_id: created.keyId,
      account_id: created.accountId,
      webhook_secret: created.webhookSecret,
    });
    context.out.line(created.key);
    context.out.note(
      `key id ${created.keyId}, account ${created.accountId} (${account}); the key is shown once: store it now`,
    );
    context.out.note(
      `webhook secret of the account: ${created.webhookSecret} (verifies its webhooks; fx service webhook-secret shows it again)`,
    );
  } finally {
    await stores.close();
  }
}
