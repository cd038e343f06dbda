/** `fx`: finds the command, parses its flags, runs it, and turns any failure into `code: message`, a hint and an exit code. */
import { isFxError } from '../runtime/errors.js';
import { ErrorCode } from '../wire/constants.js';
import { commandHelp, parseCommandArgs } from './args.js';
import { commandGroup, findCommand, topHelp } from './commands.js';
import { cliError, CliErrorCode, exitCodeOf, hintOf } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { installProblem } from './install-errors.js';
import { Output, type OutputStreams } from './output.js';

export interface CliProcess extends OutputStreams {
  readonly stdin: NodeJS.ReadStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Ctrl-C: the first aborts the command (it cleans up and says how to resume); a second one is the process's. */
  onInterrupt(listener: () => void): () => void;
}

export async function main(argv: readonly string[], io: CliProcess): Promise<number> {
  const json = argv.includes('--json');
  const out = new Output(io, { json, env: io.env });
  const found = findCommand(argv);
  if (!found) {
    const isHelp = (word: string | undefined) => word === '--help' || word === '-h' || word === 'help';
    if (argv.length === 0 || isHelp(argv[0])) {
      io.stdout.write(topHelp());
      return ExitCode.ok;
    }
    // A group word alone or with --help (`fx cloud --help`): its commands; alone, it is still a usage error.
    const group = commandGroup(argv[0]);
    if (group !== undefined && (argv.length === 1 || isHelp(argv[1]))) {
      io.stdout.write(topHelp(group));
      return argv.length === 1 ? ExitCode.usage : ExitCode.ok;
    }
    return fail(
      out,
      cliError(
        CliErrorCode.commandUnknown,
        `unknown command ${JSON.stringify(argv.filter((word) => !word.startsWith('-')).join(' '))}`,
      ),
    );
  }
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort(cliError(CliErrorCode.interrupted, 'interrupted')));
  try {
    const { command } = await found.entry.load();
    const { values, positionals } = parseCommandArgs(command, found.rest);
    if (values.help) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    const code = await command.run({
      values,
      positionals,
      out,
      env: io.env,
      signal: controller.signal,
      stdin: io.stdin,
    });
    out.endLive();
    return code ?? ExitCode.ok;
  } catch (error) {
    return fail(
      out,
      controller.signal.aborted && !isFxError(error)
        ? cliError(CliErrorCode.interrupted, 'interrupted', { cause: error })
        : error,
    );
  } finally {
    stopListening();
  }
}

function fail(out: Output, raw: unknown): number {
  // A module of a broken install fails as Node says it; the user needs to hear what to install.
  const error = installProblem(raw) ?? raw;
  const exitCode = exitCodeOf(error);
  const code = isFxError(error) ? error.code : ErrorCode.internalError;
  const message = error instanceof Error ? error.message : String(error);
  out.error(code, message, hintOf(error), exitCode);
  if (isFxError(error))
    for (const issue of error.issues.slice(0, 20)) out.note(`  ${issue.path.join('.')}: ${issue.message}`);
  if (!isFxError(error) && error instanceof Error && error.stack) out.note(error.stack);
  return exitCode;
}
