/** `fx init [dir]`: a starter project (variables, a sub-composition, an animation) that `fx lint` and `fx render` take as is. */
import { access, copyFile, mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';

const STARTER = fileURLToPath(new URL('./starter/', import.meta.url));

export const command: Command = {
  name: 'init',
  summary:
    'Creates a starter composition: declared variables, a sub-composition and a CSS animation, ready for fx lint, fx render and fx cloud render.',
  args: '[dir]',
  positionals: { min: 0, max: 1 },
  run,
};

async function run(context: CommandContext): Promise<void> {
  const target = resolve(context.positionals[0] ?? '.');
  const files = (await readdir(STARTER)).sort();
  for (const file of files) {
    const exists = await access(join(target, file)).then(
      () => true,
      () => false,
    );
    if (exists) throw cliError(CliErrorCode.targetExists, `${join(target, file)} already exists; nothing was written`);
  }
  await mkdir(target, { recursive: true });
  for (const file of files) await copyFile(join(STARTER, file), join(target, file));
  context.out.event(OutputEvent.result, { dir: target, files });
  context.out.line(`created ${files.join(', ')} in ${target}`);
  context.out.note(`next: fx lint ${context.positionals[0] ?? '.'} && fx render ${context.positionals[0] ?? '.'}`);
}
