/** `fx service rotate-signing-key`: a new OAuth signing key, shared by every API process through the database. */
import { DEFAULT_LIFETIMES } from '../../service/oauth/settings.js';
import { rotateSigningKeys } from '../../service/oauth/signing-keys.js';
import type { Command, CommandContext } from '../command.js';
import { OutputEvent } from '../output.js';
import { STORE_FLAGS } from './service.js';
import { openServiceStores } from './service-create-key.js';

/** Old keys verify this long after their rotation: the access tokens they signed live that long, plus clock skew. */
const KEEP_MS = (DEFAULT_LIFETIMES.accessToken + 60) * 1000;

export const command: Command = {
  name: 'service rotate-signing-key',
  summary: "Puts a new key first among the OAuth server's signing keys; the old ones keep verifying their tokens.",
  flags: { ...STORE_FLAGS },
  notes: [
    'API processes sign with the key they read at start: restart them one by one afterwards.',
    `A replaced key verifies for ${KEEP_MS / 60_000} minutes after its rotation, and goes at a later one.`,
  ],
  run,
};

async function run(context: CommandContext): Promise<void> {
  const stores = await openServiceStores(context);
  try {
    const { kid, kept, dropped } = await rotateSigningKeys(stores.settings, KEEP_MS);
    context.out.event(OutputEvent.result, { kid, kept, dropped });
    context.out.line(kid);
    context.out.note(
      `new signing key ${kid}; still verifying: ${kept.join(', ') || 'none'}; dropped: ${dropped.join(', ') || 'none'}. Restart the API processes to sign with it.`,
    );
  } finally {
    await stores.close();
  }
}
