/** `fx cloud delete <render_id>`: cancels and hides a render, after a confirmation (`--yes` skips it). */
import { FxClient } from '../../client/fx-client.js';
import { checkId } from '../../client/checks.js';
import type { Command, CommandContext } from '../command.js';
import { cloudCredentials } from '../credentials.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';
import { confirm } from '../prompt.js';

export const command: Command = {
  name: 'cloud delete',
  summary: 'Deletes a render (soft delete: a running render is cancelled, the record and video are hidden).',
  args: '<render_id>',
  positionals: { min: 1, max: 1 },
  flags: {
    yes: { type: 'boolean', short: 'y', description: 'do not ask for confirmation (needed without a terminal)' },
    'no-confirm': { type: 'boolean', description: 'same as --yes', hidden: true },
  },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, signal } = context;
  const id = checkId(context.positionals[0], 'render_id');
  const { apiUrl, credentials } = await cloudCredentials(context.env);
  const skip = context.values.yes === true || context.values['no-confirm'] === true;
  if (!skip && !(await confirm(context.stdin, `delete render ${id}?`, signal))) {
    throw cliError(CliErrorCode.declined, `render ${id} was not deleted`);
  }
  const deleted = await new FxClient({ baseUrl: apiUrl, credentials }).deleteRender(id, { signal });
  out.event(OutputEvent.result, deleted);
  out.line(`deleted ${deleted.render_id}`);
}
