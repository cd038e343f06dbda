/**
 * Exit codes of `fx`, said once. docs/cli.md lists them; scripts branch on them, so a code keeps its
 * meaning once published.
 */
export const ExitCode = {
  ok: 0,
  /** Anything not listed below: a render that failed, a service error, an unexpected crash. */
  failed: 1,
  /** The command line is wrong: unknown command or flag, a flag value out of range, conflicting flags. */
  usage: 2,
  /** Input was refused before any work: variables, lint errors, batch rows, a project that cannot be zipped. */
  invalid: 3,
  /** No credential, or the service refused it: sign in with `fx auth login` or set CLOUD_API_KEY. */
  auth: 4,
  /** The service could not be reached, or the wait for a render ran out (`--max-wait`); it may still finish. */
  unavailable: 5,
  /** Stopped by Ctrl-C (SIGINT), as shells report it: 128 + 2. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
