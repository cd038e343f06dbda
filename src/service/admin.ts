/**
 * Admin command of the reference service (`fx-service-admin`, `--help` for its commands), run next to its data folder:
 *
 *   node --import tsx src/service/admin.ts create-key --account <name>   prints a new API key once
 *   node --import tsx src/service/admin.ts revoke-key <key_id>
 *   node --import tsx src/service/admin.ts list-keys [--account <name>]
 *   node --import tsx src/service/admin.ts webhook-secret --account <name> [--rotate]
 *   node --import tsx src/service/admin.ts set-password --account <name>   password on stdin, or typed at a prompt
 *
 * Options: --data-dir <dir> (default $FX_SERVICE_DATA_DIR or .fx/service); --database-url <postgres://…> (default
 * $FX_SERVICE_DATABASE_URL): the service's PostgreSQL database instead of the data folder's SQLite.
 */
import { parseArgs } from 'node:util';
import { createApiKey } from './admin-commands.js';
import { DATABASE_URL_ENV, openStores } from './db/open-stores.js';
import type { Stores } from './db/stores.js';
import { DEFAULT_DATA_DIR } from './main-defaults.js';
import { readPassword } from './oauth/password-input.js';
import { assertPasswordAcceptable, PasswordError, PasswordStore } from './oauth/passwords.js';

const HELP = `Usage: fx-service-admin <command> [options]   (in this repository: node --import tsx src/service/admin.ts)

Commands:
  create-key --account <name>               a new API key (shown once) and the account's webhook secret
  revoke-key <key_id>
  list-keys [--account <name>]
  webhook-secret --account <name> [--rotate]
  set-password --account <name>             the sign-in password, on stdin or typed at a prompt

Options:
  --data-dir <dir>        the service's data folder (default $FX_SERVICE_DATA_DIR or ${DEFAULT_DATA_DIR})
  --database-url <url>    its PostgreSQL database instead (default $${DATABASE_URL_ENV})
  -h, --help              this help
`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    // An unknown option or a missing value: say which, then how it is used.
    console.error(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [command, argument] = positionals;
  // Before the stores open: a mistyped command must not create a data folder.
  if (!COMMANDS.has(command ?? '')) {
    console.error(command ? `unknown command "${command}"\n\n${HELP}` : HELP);
    return 2;
  }
  const stores = await openStores({
    dataDir: values['data-dir'] ?? process.env.FX_SERVICE_DATA_DIR ?? DEFAULT_DATA_DIR,
    databaseUrl: values['database-url'] ?? process.env[DATABASE_URL_ENV],
  });
  try {
    const { accounts, apiKeys: keys } = stores;
    switch (command) {
      case 'create-key': {
        if (!values.account) break;
        const created = await createApiKey(stores, values.account);
        console.log(`api key (shown once, store it now): ${created.key}`);
        console.log(`key id: ${created.keyId}`);
        console.log(`account: ${created.accountId} (${values.account})`);
        console.log(`webhook secret: ${created.webhookSecret}`);
        return 0;
      }
      case 'revoke-key': {
        if (!argument) break;
        const revoked = await keys.revoke(argument);
        console.log(revoked ? `revoked ${argument}` : `no active key ${argument}`);
        return revoked ? 0 : 1;
      }
      case 'list-keys': {
        const account = values.account === undefined ? undefined : await accounts.findByName(values.account);
        if (values.account !== undefined && !account) {
          console.error(`no account "${values.account}"`);
          return 1;
        }
        for (const key of await keys.list(account?.id)) {
          const state = key.revokedAt === null ? 'active' : `revoked ${new Date(key.revokedAt).toISOString()}`;
          console.log(`${key.id}  ${key.displayPrefix}…  ${key.accountId}  ${state}`);
        }
        return 0;
      }
      case 'set-password': {
        if (!values.account) break;
        return await setPassword(stores, values.account);
      }
      case 'webhook-secret': {
        const account = values.account === undefined ? undefined : await accounts.findByName(values.account);
        if (!account) break;
        console.log((values.rotate ? await accounts.rotateWebhookSecret(account.id) : account)!.webhookSecret);
        return 0;
      }
    }
    console.error(HELP);
    return 2;
  } finally {
    await stores.close();
  }
}

const COMMANDS = new Set(['create-key', 'revoke-key', 'list-keys', 'webhook-secret', 'set-password']);

const parseOptions = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      rotate: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });

/** Sets the sign-in password of the OAuth authorization server for an account (created when missing). */
async function setPassword(stores: Stores, name: string): Promise<number> {
  const password = await readPassword();
  try {
    assertPasswordAcceptable(password);
  } catch (error) {
    if (!(error instanceof PasswordError)) throw error;
    console.error(`${error.code}: ${error.message}`);
    return 1;
  }
  const account = await stores.accounts.ensure(name, Date.now());
  await new PasswordStore(stores.passwords).set(account.id, password);
  console.log(`password set for account ${account.id} (${name})`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
