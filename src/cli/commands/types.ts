/** `fx types [file or folder]`: a TypeScript type of the values a composition's variables take (for typed render calls). */
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import { stringFlag, type Command, type CommandContext } from '../command.js';
import { cliError, CliErrorCode } from '../errors.js';
import { OutputEvent } from '../output.js';
import { ENTRY_FLAGS, readEntry } from '../variables.js';

export const command: Command = {
  name: 'types',
  summary:
    "Prints a TypeScript type for a composition's declared variables (every field optional: a missing one takes its default).",
  args: '[file or project folder]',
  positionals: { min: 0, max: 1 },
  flags: {
    ...ENTRY_FLAGS,
    name: {
      type: 'string',
      value: '<Name>',
      description: 'name of the type (default: from the composition id, else CompositionVariables)',
    },
  },
  run,
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The value type of one declaration, as `validateVariables` accepts it. */
function valueType(declaration: VariableDeclaration): string {
  switch (declaration.type) {
    case 'string':
    case 'color':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return declaration.options.map((option) => JSON.stringify(option.value)).join(' | ') || 'never';
    case 'font':
      return 'string | { name: string; source?: string }';
    case 'image':
      return 'string | { url: string }';
  }
}

export function variablesType(declarations: readonly VariableDeclaration[], name: string): string {
  const fields = declarations.map((declaration) => {
    const key = IDENTIFIER.test(declaration.id) ? declaration.id : JSON.stringify(declaration.id);
    const doc = `  /** ${declaration.label.replaceAll('*/', '*\\/')} (default ${JSON.stringify(declaration.default)?.replaceAll('*/', '*\\/')}) */`;
    return `${doc}\n  ${key}?: ${valueType(declaration)};`;
  });
  return `export interface ${name} {\n${fields.join('\n')}\n}\n`;
}

const pascal = (id: string) =>
  id
    .replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, letter: string) => letter.toUpperCase())
    .replace(/^[^A-Za-z_$]+/, '');

async function run(context: CommandContext): Promise<void> {
  const metadata = extractCompositionMetadata(
    await readEntry(context.positionals[0] ?? '.', stringFlag(context, 'composition')),
  );
  const given = stringFlag(context, 'name');
  if (given !== undefined && !IDENTIFIER.test(given))
    throw cliError(CliErrorCode.flagInvalid, `"--name" must be a TypeScript identifier, got ${JSON.stringify(given)}`);
  const name =
    given ?? (metadata.id && pascal(metadata.id) ? `${pascal(metadata.id)}Variables` : 'CompositionVariables');
  const source = variablesType(metadata.variables, name);
  context.out.event(OutputEvent.result, { name, source, variables: metadata.variables.length });
  context.out.line(source.trimEnd());
}
