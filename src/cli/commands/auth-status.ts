/** `fx auth status`: which credential is used (and from where), whose it is, and this period's usage. */
import { FxClient } from '../../client/fx-client.js';
import type { Command, CommandContext } from '../command.js';
import { cloudCredentials } from '../credentials.js';
import { OutputEvent } from '../output.js';

export const command: Command = {
  name: 'auth status',
  summary:
    'Shows the credential in use (CLOUD_API_KEY, RENDER_API_KEY, the stored key or sign-in), its account and usage.',
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, signal } = context;
  const found = await cloudCredentials(context.env);
  const source =
    found.source === 'file'
      ? `API key in ${found.resolved.store.path}`
      : found.source === 'oauth'
        ? `signed in (${found.resolved.store.path})`
        : found.source;
  const account = await new FxClient({ baseUrl: found.apiUrl, credentials: found.credentials }).getAccount({ signal });
  const tokens = found.session && (await found.session.tokens());
  out.event(OutputEvent.result, {
    source: found.source,
    api_url: found.apiUrl,
    account: { account_id: account.account_id, name: account.name },
    credential: account.credential,
    usage: account.usage,
    ...(tokens ? { expires_at: new Date(tokens.expiresAt).toISOString() } : {}),
  });
  const { usage } = account;
  out.line(`service     ${found.apiUrl}`);
  out.line(`credential  ${source} (${account.credential.kind} ${account.credential.id})`);
  out.line(`account     ${account.name} (${account.account_id})`);
  if (tokens) out.line(`expires     ${new Date(tokens.expiresAt).toISOString()} (refreshed when needed)`);
  out.line(
    `usage       ${usage.credits_used} credits, ${usage.renders_completed}/${usage.renders_total} renders completed, ${usage.renders_failed} failed (${usage.period_start} – ${usage.period_end})`,
  );
}
