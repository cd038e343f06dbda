/** Questions on the terminal: a yes/no confirmation and a hidden line (the service's own hidden prompt). */
import { createInterface } from 'node:readline/promises';
import { hiddenPrompt } from '../service/oauth/password-input.js';
import { cliError, CliErrorCode } from './errors.js';

/** Refuses to ask without a terminal: a script must say `--yes` rather than hang or read its own input. */
function requireTerminal(stdin: NodeJS.ReadStream, instead: string): void {
  if (!stdin.isTTY) throw cliError(CliErrorCode.promptUnavailable, `there is no terminal to ask on; ${instead}`);
}

export async function confirm(stdin: NodeJS.ReadStream, question: string, signal: AbortSignal): Promise<boolean> {
  requireTerminal(stdin, 'pass --yes to skip the question');
  const rl = createInterface({ input: stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export async function askHidden(stdin: NodeJS.ReadStream, question: string): Promise<string> {
  requireTerminal(stdin, 'pipe the value on stdin instead');
  return hiddenPrompt(question);
}
