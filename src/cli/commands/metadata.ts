/** `fx metadata [file or folder]`: `extractCompositionMetadata` as JSON (id, size, duration, variables, issues). */
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { OutputEvent } from '../output.js';
import { ENTRY_FLAGS, readEntry } from '../variables.js';

export const command: Command = {
  name: 'metadata',
  summary:
    "Prints a composition's metadata as JSON: id, width, height, duration, declared variables and issues. Nothing is rendered.",
  args: '[file or project folder]',
  positionals: { min: 0, max: 1 },
  flags: {
    ...ENTRY_FLAGS,
  },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const metadata = extractCompositionMetadata(
    await readEntry(context.positionals[0] ?? '.', stringFlag(context, 'composition')),
  );
  context.out.event(OutputEvent.result, { metadata });
  context.out.line(JSON.stringify(metadata, null, 2));
}
