/**
 * A broken install, told as one: a package of fx missing, a native module (better-sqlite3) that will not load for
 * this Node, Chromium or FFmpeg absent. What Node throws for the first two is no `FxError`; here it becomes one
 * with a code, a message naming the package, and a hint saying what to install — never `internal_error`.
 */
import { RenderErrorCode } from '../render/errors.js';
import { FxError, isFxError } from '../runtime/errors.js';
import { cliError, CliErrorCode } from './errors.js';

/** What a package is for, and how to repair it, when it is one users meet broken. */
const KNOWN: Record<string, { readonly role: string; readonly repair: string }> = {
  'better-sqlite3': {
    role: "the reference service's SQLite database",
    repair:
      'rebuild it for this Node: `npm rebuild better-sqlite3` in the folder fx is installed in (compiling needs python3, make and g++: `apt-get install python3 make g++`), or reinstall fx',
  },
};

/** Codes of a broken install: each has a hint in errors.ts saying what to install. */
export const INSTALL_CODES: ReadonlySet<string> = new Set([
  CliErrorCode.dependencyMissing,
  CliErrorCode.nativeModuleBroken,
  RenderErrorCode.browserNotFound,
  RenderErrorCode.ffmpegNotFound,
  RenderErrorCode.bundleMissing,
]);

const NATIVE_FAILURE = /Could not locate the bindings file|NODE_MODULE_VERSION|invalid ELF header|wrong ELF class/;
const NOT_FOUND = /Cannot find (?:package|module) '([^']+)'/;
const IN_NODE_MODULES = /node_modules[/\\]((?:@[^/\\\s]+[/\\])?[^/\\\s]+)/;

/** The typed error a raw module-loading failure means; `undefined` for anything else (already typed, or a bug). */
export function installProblem(error: unknown): FxError | undefined {
  if (isFxError(error) || !(error instanceof Error)) return undefined;
  const { code } = error as NodeJS.ErrnoException;
  const firstLine = error.message.split('\n')[0]!;
  if (code === 'ERR_DLOPEN_FAILED' || NATIVE_FAILURE.test(error.message)) {
    const name = IN_NODE_MODULES.exec(error.message)?.[1] ?? 'a native module';
    const known = KNOWN[name];
    return cliError(
      CliErrorCode.nativeModuleBroken,
      `"${name}"${known ? ` (${known.role})` : ''} cannot be loaded by Node ${process.version}: ${firstLine}; ${known?.repair ?? 'reinstall fx'}`,
      { cause: error },
    );
  }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    const specifier = NOT_FOUND.exec(error.message)?.[1];
    // A relative or absolute path is a file of fx itself; a bare name is a package.
    const name = specifier?.match(/^(?:@[^/]+\/)?[^/.][^/]*/)?.[0] ?? specifier ?? 'a package';
    const known = KNOWN[name];
    return cliError(
      CliErrorCode.dependencyMissing,
      `"${name}"${known ? ` (${known.role})` : ''} is missing from this install of fx: ${firstLine}; reinstall fx (\`npm i -g\` the package again)`,
      { cause: error },
    );
  }
  return undefined;
}
