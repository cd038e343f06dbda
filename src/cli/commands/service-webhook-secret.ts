/** `fx service webhook-secret --account <name> [--rotate]`: the secret that signs an account's webhooks. */
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';
import { STORE_FLAGS } from './service.js';
import { openServiceStores } from './service-create-key.js';

export const command: Command = {
  name: 'service webhook-secret',
  summary: "Prints the secret that signs an account's webhooks (to verify them), or a new one with --rotate.",
  flags: {
    account: { type: 'string', value: '<name>', description: 'the account (required)' },
    rotate: { type: 'boolean', description: 'replace the secret: webhooks from now on are signed with the new one' },
    ...STORE_FLAGS,
  },
  notes: ['The signature scheme and how to verify it: docs/service.md, "Webhooks".'],
  run,
};

async function run(context: CommandContext): Promise<void> {
  const name = stringFlag(context, 'account');
  if (!name) throw cliError(CliErrorCode.flagInvalid, '"--account" is required');
  const stores = await openServiceStores(context);
  try {
    const account = await stores.accounts.findByName(name);
    if (!account) throw cliError(CliErrorCode.flagInvalid, `"--account" names no account, got ${JSON.stringify(name)}`);
    const secret = context.values.rotate
      ? (await stores.accounts.rotateWebhookSecret(account.id))!.webhookSecret
      : account.webhookSecret;
    context.out.event(OutputEvent.result, {
      account_id: account.id,
      webhook_secret: secret,
      rotated: !!context.values.rotate,
    });
    context.out.line(secret);
  } finally {
    await stores.close();
  }
}
