/**
 * What the service process does with an error nobody handled, instead of Node's default (print and exit at once,
 * which ends every render in flight and every open request with it).
 *
 * - An **unhandled rejection** is logged and the service keeps serving. A promise that rejects with no handler
 *   has already left the code that made it: no stack was unwound through half-done work, so what the process
 *   holds is as consistent as before. The bug is a missing `catch`, not broken state (issue 8: a cancelled render
 *   left one behind, and one cancel in about 120 took the whole service down).
 * - An **uncaught exception** is logged and the process stops in order (running renders go back to the queue,
 *   the database closes) and exits with code 1 for its supervisor to restart it. A synchronous throw that reached
 *   the top unwound through code that did not expect it, maybe midway through changing shared state (a map of
 *   running jobs, a half-written response); Node documents that resuming after it is unsafe. Crash recovery on
 *   the next start requeues whatever was still `rendering`.
 */
export interface LastResortOptions {
  readonly log: (message: string, details?: Record<string, unknown>) => void;
  /** Orderly stop before exiting after an uncaught exception. */
  readonly shutdown: () => Promise<void>;
  /** Longest the orderly stop may take before the process exits anyway. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  readonly exit?: (code: number) => void;
}

/** Exit status after an uncaught exception. */
export const UNCAUGHT_EXIT_CODE = 1;

const describeError = (error: unknown) =>
  error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);

/** Installs the policy on `target` (the process); returns the function that removes it. */
export function installLastResort(target: NodeJS.Process, options: LastResortOptions): () => void {
  const exit = options.exit ?? ((code: number) => target.exit(code));
  let stopping = false;
  const onRejection = (reason: unknown) => {
    options.log('unhandled rejection (the service keeps serving)', { error: describeError(reason) });
  };
  const onException = (error: unknown) => {
    options.log('uncaught exception (the service stops)', { error: describeError(error) });
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => exit(UNCAUGHT_EXIT_CODE), options.shutdownTimeoutMs ?? 10_000);
    timer.unref();
    options
      .shutdown()
      .catch((failure: unknown) => options.log('orderly stop failed', { error: describeError(failure) }))
      .finally(() => {
        clearTimeout(timer);
        exit(UNCAUGHT_EXIT_CODE);
      });
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}
