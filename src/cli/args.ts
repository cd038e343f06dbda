/**
 * Argument parsing with Node's own `util.parseArgs` (strict: an unknown flag or a missing value is an error): no
 * dependency for the one part every command needs, and its rules are the POSIX-ish ones users expect (`-o x`,
 * `--output=x`, `--` ends flags). Values stay strings; each command reads and checks its numbers.
 */
import { parseArgs } from 'node:util';
import { ARGUMENT, COMMON_FLAGS, type Command } from './command.js';
import { cliError, CliErrorCode } from './errors.js';

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

export function parseCommandArgs(command: Command, args: readonly string[]): ParsedArgs {
  const flags = { ...COMMON_FLAGS, ...command.flags };
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs's messages name the flag ("Unknown option '--fsp'"); its codes say which kind of mistake.
    // Its advice about `--` is noise next to our hint: keep the first sentence.
    const [first] = (error as Error).message.split(/\. (?=To )/);
    throw cliError(CliErrorCode.flagUnknown, `fx ${command.name}: ${first}`, { cause: error });
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { values, positionals: parsed.positionals };
  const { min = 0, max = 0 } = command.positionals ?? {};
  const count = parsed.positionals.length;
  if (count < min || count > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw cliError(
      CliErrorCode.flagInvalid,
      `fx ${command.name} takes ${expected} argument(s) (${command.args ?? 'none'}), got ${count}`,
    );
  }
  checkFlagRules(command, values, count > 0);
  return { values, positionals: parsed.positionals };
}

const flagLabel = (command: Command, name: string) =>
  name === ARGUMENT ? (command.args ?? 'an argument') : `--${name}`;

function checkFlagRules(command: Command, values: ParsedArgs['values'], hasArgument: boolean): void {
  const given = (name: string) =>
    name === ARGUMENT ? hasArgument : values[name] !== undefined && values[name] !== false;
  const label = (name: string) => flagLabel(command, name);
  for (const rule of command.flagRules ?? []) {
    if (!given(rule.flag)) continue;
    const ignored =
      'needs' in rule
        ? !given(rule.needs) && `without ${label(rule.needs)}`
        : given(rule.not) && `with ${label(rule.not)}`;
    if (ignored) {
      throw cliError(
        CliErrorCode.flagIgnored,
        `fx ${command.name}: ${label(rule.flag)} has no effect ${ignored}: ${rule.why}`,
      );
    }
  }
}

/** `--help` text of one command. */
export function commandHelp(command: Command): string {
  const flags = Object.entries({ ...command.flags, ...COMMON_FLAGS }).filter(([, spec]) => !spec.hidden);
  const left = flags.map(
    ([name, spec]) => `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` ${spec.value}` : ''}`,
  );
  const width = Math.max(...left.map((text) => text.length));
  const lines = [
    `fx ${command.name}${command.args ? ` ${command.args}` : ''} [flags]`,
    '',
    command.summary,
    '',
    'Flags:',
    ...flags.map(([, spec], index) => `  ${left[index]!.padEnd(width)}  ${spec.description}`),
  ];
  if (command.flagRules?.length) {
    const label = (name: string) => flagLabel(command, name);
    lines.push(
      '',
      'Refused as having no effect:',
      ...command.flagRules.map((rule) =>
        'needs' in rule
          ? `  ${label(rule.flag)} without ${label(rule.needs)}`
          : `  ${label(rule.flag)} with ${label(rule.not)}`,
      ),
    );
  }
  if (command.notes?.length) lines.push('', ...command.notes);
  return `${lines.join('\n')}\n`;
}

/** An integer flag in a range; `undefined` when absent. */
export function integerFlag(
  name: string,
  value: string | boolean | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `"--${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** A positive number flag (seconds, minutes); `undefined` when absent. */
export function numberFlag(name: string, value: string | boolean | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number) || number <= 0 || number > max) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `"--${name}" must be a number above 0 and at most ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** One of a fixed list; `undefined` when absent. */
export function choiceFlag<T extends string>(
  name: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `"--${name}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

/** Refuses two flags given together. */
export function exclusive(values: ParsedArgs['values'], ...names: string[]): void {
  const given = names.filter((name) => values[name] !== undefined && values[name] !== false);
  if (given.length > 1) {
    throw cliError(
      CliErrorCode.flagInvalid,
      `${given.map((name) => `"--${name}"`).join(' and ')} cannot be used together`,
    );
  }
}
