import { AuthErrorCode } from '../auth/errors.js';
import { ExecutableEnv } from '../render/executables.js';
import { BackupErrorCode } from '../service/backup/errors.js';
import { ServiceConfigErrorCode } from '../service/config-check.js';
import { BatchErrorCode } from '../client/batch-rows.js';
import { ClientErrorCode } from '../client/errors.js';
import { RenderErrorCode } from '../render/errors.js';
import { FxError, isFxError } from '../runtime/errors.js';
import { CompileIssueCode } from '../runtime/compile/codes.js';
import { ErrorCode } from '../wire/constants.js';
import { ExitCode } from './exit-codes.js';

/** Codes of the CLI's own refusals; errors from the client, auth and renderer keep their codes. */
export const CliErrorCode = {
  /** A flag this command does not know, or a flag without its value. */
  flagUnknown: 'cli_flag_unknown',
  /** A flag's value is out of range, or two flags conflict; the message names them. */
  flagInvalid: 'cli_flag_invalid',
  /** A flag that would have no effect with the others given (`--resume` without `--batch`, …): never ignored silently. */
  flagIgnored: 'cli_flag_ignored',
  /** No such command. */
  commandUnknown: 'cli_command_unknown',
  /** `--variables` (or the file) is not a JSON object. */
  variablesInvalid: 'cli_variables_invalid',
  /** `--metadata` is not a JSON object. */
  metadataInvalid: 'cli_metadata_invalid',
  /** `--output` placeholders do not work for every batch row (missing key, non-scalar value, two rows one path). */
  outputInvalid: 'cli_output_invalid',
  /** A file given on the command line cannot be read. */
  fileUnreadable: 'cli_file_unreadable',
  /** Lint found errors. */
  lintFailed: 'cli_lint_failed',
  /** A prompt was needed (delete confirmation, API key) but there is no terminal to ask on. */
  promptUnavailable: 'cli_prompt_unavailable',
  /** Ctrl-C stopped the command. */
  interrupted: 'cli_interrupted',
  /** The user answered no. */
  declined: 'cli_declined',
  /** No credential: neither CLOUD_API_KEY, RENDER_API_KEY nor a signed-in session in ~/.fx/credentials. */
  notSignedIn: 'cli_not_signed_in',
  /** `fx init` into a folder that already has an entry file. */
  targetExists: 'cli_target_exists',
  /** Another fx process holds the credentials lock (a sign-in refresh) and kept it past the wait. */
  lockBusy: 'cli_lock_busy',
  /** A package of fx is not installed (a broken or partial install). */
  dependencyMissing: 'cli_dependency_missing',
  /** A native module (better-sqlite3) is there but does not load for this Node: not built, or built for another. */
  nativeModuleBroken: 'cli_native_module_broken',
  /** A batch row's video could not be downloaded, for a reason without a code of its own (the manifest's row error). */
  downloadFailed: 'download_failed',
} as const;
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

export const cliError = (code: CliErrorCode, message: string, options: { cause?: unknown } = {}) =>
  new FxError(code, message, options);

const USAGE = new Set<string>([
  CliErrorCode.flagUnknown,
  CliErrorCode.flagInvalid,
  CliErrorCode.flagIgnored,
  CliErrorCode.commandUnknown,
  CliErrorCode.promptUnavailable,
  ClientErrorCode.optionInvalid,
  RenderErrorCode.optionInvalid,
]);
/** Refusals of a flag's value the client makes before any request (they come without an HTTP status). */
const FLAG_REFUSALS = new Set<string>([
  ErrorCode.parameterInvalid,
  ErrorCode.parameterConflict,
  ErrorCode.resolutionFormatUnsupported,
  ErrorCode.metadataTooLarge,
  ErrorCode.metadataTooDeep,
  ErrorCode.callbackUrlInsecure,
  ErrorCode.idempotencyKeyInvalid,
]);
const AUTH = new Set<string>([
  CliErrorCode.notSignedIn,
  ClientErrorCode.authRequired,
  ErrorCode.authenticationRequired,
  ErrorCode.invalidToken,
  ErrorCode.credentialsNotAccepted,
  ...Object.values(AuthErrorCode).filter((code) => code !== AuthErrorCode.discoveryFailed),
]);
const UNAVAILABLE = new Set<string>([
  ClientErrorCode.networkError,
  ClientErrorCode.timeout,
  AuthErrorCode.discoveryFailed,
]);
const INVALID = new Set<string>([
  CompileIssueCode.fileMissing,
  CompileIssueCode.imageTooLarge,
  CliErrorCode.variablesInvalid,
  CliErrorCode.metadataInvalid,
  CliErrorCode.outputInvalid,
  CliErrorCode.fileUnreadable,
  CliErrorCode.lintFailed,
  CliErrorCode.targetExists,
  BatchErrorCode.rowsInvalid,
  BatchErrorCode.rowsRefused,
  BatchErrorCode.metadataPlaceholderInvalid,
  // Before upload, from the entry's declared duration (the service answers them 422), and from a local render.
  ErrorCode.timeOutsideDuration,
  ErrorCode.rangeOutsideDuration,
  ServiceConfigErrorCode.invalid,
  BackupErrorCode.notEmbedded,
  BackupErrorCode.targetNotEmpty,
  BackupErrorCode.sourceInvalid,
]);
const INVALID_PREFIXES = ['zip_', 'project_source_'];

/** The exit code of a failure: by its `code`, so a message change never changes what a script sees. */
export function exitCodeOf(error: unknown): ExitCode {
  if (!isFxError(error)) return ExitCode.failed;
  const { code, status } = error;
  if (code === ClientErrorCode.aborted || code === RenderErrorCode.aborted || code === CliErrorCode.interrupted)
    return ExitCode.interrupted;
  if (USAGE.has(code) || (status === undefined && FLAG_REFUSALS.has(code))) return ExitCode.usage;
  if (AUTH.has(code)) return ExitCode.auth;
  if (UNAVAILABLE.has(code)) return ExitCode.unavailable;
  // What the service refused (4xx), and the checks made before sending it: the input was wrong.
  if ((status !== undefined && status >= 400 && status < 500) || code === ErrorCode.renderProjectInvalid)
    return ExitCode.invalid;
  if (INVALID.has(code) || (status === undefined && INVALID_PREFIXES.some((prefix) => code.startsWith(prefix))))
    return ExitCode.invalid;
  return ExitCode.failed;
}

const HINTS: Record<string, string> = {
  [CliErrorCode.flagUnknown]: 'run the command with --help to see its flags',
  [CliErrorCode.flagInvalid]: 'run the command with --help to see what each flag takes',
  [CliErrorCode.flagIgnored]: 'drop the flag, or add the one it needs (see --help)',
  [CliErrorCode.commandUnknown]: 'run `fx --help` to see the commands',
  [CliErrorCode.variablesInvalid]: 'pass a JSON object, e.g. --variables \'{"title":"Hi"}\'',
  [CliErrorCode.metadataInvalid]: 'pass a JSON object, e.g. --metadata \'{"order":"A-17"}\'',
  [BatchErrorCode.metadataPlaceholderInvalid]: 'give every row the keys --metadata names in {braces}',
  [CliErrorCode.outputInvalid]: 'give every row the keys --output names, or add {index} to the path',
  [CliErrorCode.lintFailed]: 'fix the errors listed above, then run the command again',
  [CliErrorCode.promptUnavailable]: 'run it in a terminal, or pass --yes',
  [CliErrorCode.notSignedIn]: 'run `fx auth login`, or set CLOUD_API_KEY',
  [AuthErrorCode.loginTimeout]: 'run `fx auth login` again, or use `fx auth login --api-key`',
  [ClientErrorCode.authRequired]: 'run `fx auth login` again, or check CLOUD_API_KEY',
  [ClientErrorCode.networkError]: 'is the service running? check CLOUD_API_URL',
  [ClientErrorCode.timeout]: 'the render goes on: check it later with `fx cloud get <render_id>`',
  [ErrorCode.renderProjectInvalid]: 'fix the variables (see `fx metadata <file>` for what is declared)',
  [CompileIssueCode.fileMissing]:
    'add the files (`fx lint` or `fx cloud render --dry-run` lists each place), or render anyway with --allow-missing-files',
  [ErrorCode.resolutionFormatUnsupported]: 'use --format mp4 (jpeg for a still) for 4k, or render at 1080p',
  [ErrorCode.idempotencyKeyInvalid]: 'use 1 to 255 characters of A-Z a-z 0-9 _ : . -',
  [ErrorCode.renderNotFound]: 'list your renders with `fx cloud list`',
  [BatchErrorCode.rowsRefused]: 'fix the rows listed above; nothing was rendered',
  [ServiceConfigErrorCode.invalid]:
    'fix each setting named (`fx service check-config` checks them without starting a service)',
  [AuthErrorCode.credentialsFileCorrupt]: 'fix or remove the file, then run `fx auth login`',
  [AuthErrorCode.discoveryFailed]: 'is the service running? check CLOUD_API_URL',
  [CliErrorCode.dependencyMissing]: 'reinstall fx: npm i -g <the fx-sdk-server tarball or package>',
  [CliErrorCode.nativeModuleBroken]: 'npm rebuild better-sqlite3 where fx is installed (needs python3, make, g++)',
  [RenderErrorCode.browserNotFound]: `install Chromium: apt-get install chromium chromium-headless-shell (or set ${ExecutableEnv.chromium})`,
  [RenderErrorCode.ffmpegNotFound]: `install FFmpeg: apt-get install ffmpeg (or set ${ExecutableEnv.ffmpeg})`,
  [RenderErrorCode.bundleMissing]: 'reinstall fx; in a clone of its repository, run npm run build',
  [CliErrorCode.lockBusy]: 'wait for the other fx command to finish, then run this one again',
};

/** A next step for the user, by code; `undefined` when there is nothing better than the message. */
export const hintOf = (error: unknown): string | undefined => (isFxError(error) ? HINTS[error.code] : undefined);
