import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_COMPOSITION } from '../wire/constants.js';
import { exclusive } from './args.js';
import type { CommandContext } from './command.js';
import { cliError, CliErrorCode } from './errors.js';

/** The flags of variable values, shared by `fx render` and `fx cloud render`. */
export const VARIABLE_FLAGS = {
  variables: { type: 'string', value: '<json>', description: 'variable values as a JSON object' },
  'variables-file': { type: 'string', value: '<path>', description: 'a JSON file of variable values' },
  'strict-variables': { type: 'boolean', description: 'refuse the render on any variable warning (undeclared id, …)' },
} as const;

/** `--variables` or `--variables-file` (never both) as an object; `undefined` when neither is given. */
export async function variablesOf(context: CommandContext): Promise<Record<string, unknown> | undefined> {
  exclusive(context.values, 'variables', 'variables-file');
  const inline = context.values.variables as string | undefined;
  const file = context.values['variables-file'] as string | undefined;
  if (inline !== undefined) return parseObject(inline, '--variables');
  if (file === undefined) return undefined;
  return parseObject(await readText(file), `--variables-file ${file}`);
}

/** `-c`, for the commands that read one entry of a project folder (`fx metadata`, `fx types`). */
export const ENTRY_FLAGS = {
  composition: {
    type: 'string',
    short: 'c',
    value: '<file>',
    description: `entry HTML file when given a project folder (default ${DEFAULT_COMPOSITION})`,
  },
} as const;

/**
 * The entry HTML a command reads: `target` itself, or, when it is a project folder, its `composition` (default
 * `index.html`), as `fx lint` and `fx render` take a folder.
 */
export async function readEntry(target: string, composition = DEFAULT_COMPOSITION): Promise<string> {
  const folder = await stat(target).then(
    (found) => found.isDirectory(),
    () => false,
  );
  return readText(folder ? join(target, composition) : target);
}

export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw cliError(
      CliErrorCode.fileUnreadable,
      `${JSON.stringify(path)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`,
      { cause: error },
    );
  }
}

function parseObject(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw cliError(CliErrorCode.variablesInvalid, `${where} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw cliError(CliErrorCode.variablesInvalid, `${where} must be a JSON object of variable values, got ${kind}`);
  }
  return value as Record<string, unknown>;
}
