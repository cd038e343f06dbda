/** `fx cloud list`: one page of renders (`--limit`, `--token`), or every one (`--all`). */
import { FxClient } from '../../client/fx-client.js';
import { MAX_PAGE_SIZE } from '../../wire/constants.js';
import type { Render } from '../../wire/responses.js';
import { exclusive, integerFlag } from '../args.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cloudCredentials } from '../credentials.js';
import { OutputEvent, type Output } from '../output.js';

export const command: Command = {
  name: 'cloud list',
  summary: 'Lists your renders, newest first, one page at a time.',
  flags: {
    limit: { type: 'string', value: '<n>', description: `renders per page, 1–${MAX_PAGE_SIZE} (default 20)` },
    token: { type: 'string', value: '<token>', description: 'the page after the one that printed this token' },
    all: { type: 'boolean', description: 'every render, page after page' },
  },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const { out, signal } = context;
  exclusive(context.values, 'all', 'token');
  const limit = integerFlag('limit', context.values.limit, 1, MAX_PAGE_SIZE);
  const { apiUrl, credentials } = await cloudCredentials(context.env);
  const client = new FxClient({ baseUrl: apiUrl, credentials });
  if (context.values.all) {
    const renders: Render[] = [];
    for await (const render of client.renders({ ...(limit ? { limit } : {}), signal })) {
      renders.push(render);
      printRow(out, render);
    }
    out.event(OutputEvent.result, { renders, next_token: null });
    return;
  }
  const token = stringFlag(context, 'token');
  const page = await client.listRenders({ ...(limit ? { limit } : {}), ...(token ? { token } : {}), signal });
  for (const render of page.data) printRow(out, render);
  out.event(OutputEvent.result, { renders: page.data, next_token: page.next_token });
  if (page.data.length === 0) out.note('no renders');
  if (page.next_token) out.note(`more: fx cloud list --token ${page.next_token}`);
}

function printRow(out: Output, render: Render): void {
  const progress =
    render.status === 'rendering' && render.progress.frames_total
      ? ` ${Math.floor((100 * render.progress.frames_done) / render.progress.frames_total)}%`
      : '';
  out.line(
    `${render.render_id}  ${`${render.status}${progress}`.padEnd(14)}  ${render.format.padEnd(4)}  ${render.created_at}`,
  );
}
