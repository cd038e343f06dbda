/** Thrown by {@link WorkLimit.run} when every slot is busy and the waiting line is full. */
export class WorkLimitBusyError extends Error {
  override name = 'WorkLimitBusyError';
  readonly code = 'work_limit_busy';
}

/**
 * Runs at most `concurrency` tasks at once, with at most `queue` more waiting; beyond that `run` refuses at
 * once. Password hashing goes through it: scrypt holds 32 MiB and a libuv thread per call, and unbounded
 * concurrent sign-ins would starve the file and DNS work that shares those threads.
 */
export class WorkLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queue)
        throw new WorkLimitBusyError(`${this.concurrency} running and ${this.queue} waiting already`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `active` never drops below the line's demand.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
