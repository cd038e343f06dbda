/** `fx auth refresh`: a new access token now, before a long job (API keys need none). */
import { bearer } from '../../auth/tokens.js';
import type { Command, CommandContext } from '../command.js';
import { cloudCredentials } from '../credentials.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';

export const command: Command = {
  name: 'auth refresh',
  summary: 'Refreshes the signed-in session now (an API key never expires and needs no refresh).',
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out } = context;
  const found = await cloudCredentials(context.env);
  if (!found.session) {
    out.event(OutputEvent.result, { refreshed: false, source: found.source });
    out.line(`nothing to refresh: the credential is an API key (${found.source})`);
    return;
  }
  const before = await found.session.tokens();
  // Refreshing "because this token was rejected" forces a new one; the file lock keeps other fx processes out meanwhile.
  if (!before || !(await found.session.refresh(bearer(before)))) {
    throw cliError(CliErrorCode.notSignedIn, 'the sign-in has ended (the server refused the refresh token)');
  }
  const after = (await found.session.tokens())!;
  const expiresAt = new Date(after.expiresAt).toISOString();
  out.event(OutputEvent.result, { refreshed: true, expires_at: expiresAt });
  out.line(`refreshed; the access token is good until ${expiresAt}`);
}
