import type { Output } from './output.js';

/** One flag of a command, as `util.parseArgs` takes it plus what `--help` prints. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Shown after the flag in `--help`, e.g. `<n>`. */
  readonly value?: string;
  readonly description: string;
  /** Left out of `--help` (aliases). */
  readonly hidden?: boolean;
}

export type Flags = Readonly<Record<string, FlagSpec>>;

/** Stands for the command's argument (e.g. `[project_dir]`) in a {@link FlagRule}. */
export const ARGUMENT = '<argument>';

/**
 * A combination in which `flag` would be silently ignored — without `needs`, or together with `not` — refused
 * before the command runs (`cli_flag_ignored`, a usage error); `why` ends the message.
 */
export type FlagRule =
  | { readonly flag: string; readonly needs: string; readonly why: string }
  | { readonly flag: string; readonly not: string; readonly why: string };

/** What a command receives: parsed flags and positionals, where to write, and the Ctrl-C signal. */
export interface CommandContext {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
  readonly out: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
  readonly stdin: NodeJS.ReadStream;
}

export interface Command {
  /** Words after `fx`, e.g. `cloud render`. */
  readonly name: string;
  readonly summary: string;
  /** After the name in the usage line, e.g. `[project_dir]`. */
  readonly args?: string;
  readonly positionals?: { readonly min: number; readonly max: number };
  readonly flags?: Flags;
  readonly flagRules?: readonly FlagRule[];
  /** Lines after the flags in `--help`. */
  readonly notes?: readonly string[];
  /** Resolves with the exit code (0 when nothing is returned); failures throw. */
  run(context: CommandContext): Promise<number | void>;
}

/** Flags every command takes. */
export const COMMON_FLAGS: Flags = {
  json: { type: 'boolean', description: 'machine output: one JSON event per line on stdout' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/** A string flag's value, `undefined` when absent. */
export const stringFlag = (context: CommandContext, name: string) => context.values[name] as string | undefined;
export const booleanFlag = (context: CommandContext, name: string) => context.values[name] === true;
