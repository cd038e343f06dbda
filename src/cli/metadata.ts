/** `fx metadata <file>`: `extractCompositionMetadata` as JSON (id, size, duration, variables, issues). */
import { extractCompositionMetadata } from '../runtime/metadata.js';
import type { Command, CommandContext } from './command.js';
import { OutputEvent } from './output.js';
import { readText } from './variables.js';

export const command: Command = {
  name: 'metadata',
  summary:
    "Prints a composition's metadata as JSON: id, width, height, duration, declared variables and issues. Nothing is rendered.",
  args: '<file>',
  positionals: { min: 1, max: 1 },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const metadata = extractCompositionMetadata(await readText(context.positionals[0]!));
  context.out.event(OutputEvent.result, { metadata });
  context.out.line(JSON.stringify(metadata, null, 2));
}
