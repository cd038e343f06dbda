/** `fx auth logout`: revokes the sign-in at the server and removes every credential from the credentials file. */
import { resolveNodeCredentials } from '../../auth/node/resolve.js';
import { StoreKey } from '../../auth/store.js';
import { isFxError } from '../../runtime/errors.js';
import type { Command, CommandContext } from '../command.js';
import { cliSession } from '../credentials.js';
import { OutputEvent } from '../output.js';

export const command: Command = {
  name: 'auth logout',
  summary:
    'Signs out: revokes the stored sign-in at the server and removes it and any stored API key from ~/.fx/credentials.',
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, env } = context;
  const resolved = await resolveNodeCredentials({ env: { CLOUD_API_URL: env.CLOUD_API_URL } });
  const session = cliSession(resolved);
  const hadSession = await session.signedIn();
  let revoked = hadSession;
  try {
    await session.signOut();
  } catch (error) {
    // The local sign-in is gone either way; say what the server did not hear.
    if (!isFxError(error)) throw error;
    revoked = false;
    out.warning(`${error.code}: ${error.message}`);
  }
  const hadKey = (await resolved.store.get(StoreKey.apiKey)) !== undefined;
  await resolved.store.delete(StoreKey.apiKey);
  out.event(OutputEvent.result, {
    signed_out: hadSession,
    revoked,
    api_key_removed: hadKey,
    path: resolved.store.path,
  });
  out.line(
    hadSession || hadKey ? `signed out; ${resolved.store.path} holds no credential now` : 'no stored credential',
  );
  if (env.CLOUD_API_KEY || env.RENDER_API_KEY)
    out.warning('CLOUD_API_KEY or RENDER_API_KEY is still set in this environment');
}
