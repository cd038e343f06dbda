/**
 * Records every unhandled promise rejection and uncaught exception of the test process. With a listener installed
 * Node no longer dies of them, so a test can assert there were none instead of losing the whole run.
 */
export interface RejectionTrap {
  readonly caught: readonly unknown[];
  /** Lets pending rejections surface (they are reported after the microtask queue drains), then stops listening. */
  settle(): Promise<readonly unknown[]>;
}

export function trapRejections(): RejectionTrap {
  const caught: unknown[] = [];
  const onRejection = (reason: unknown) => caught.push(reason);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onRejection);
  return {
    caught,
    async settle() {
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onRejection);
      return caught;
    },
  };
}

/** One line per trapped error, for an assertion message. */
export const describeCaught = (caught: readonly unknown[]) =>
  caught
    .map((error) => (error instanceof Error ? error.stack?.split('\n').slice(0, 3).join(' | ') : String(error)))
    .join('\n');
