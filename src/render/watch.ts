import { CdpError } from './cdp.js';
import { abortedError, RenderErrorCode, renderError } from './errors.js';

/** How long a lost DevTools pipe waits for the browser's exit to be reported (with its stderr). */
const CRASH_REPORT_WAIT_MS = 2000;

/**
 * What every step of one render races against: the caller's abort signal, a per-step time limit, and the first
 * fatal failure reported from elsewhere (browser crash, FFmpeg exit). The first of these wins and sticks.
 */
export class RenderWatch {
  readonly failed: Promise<never>;
  #error: Error | undefined;
  #reject!: (error: Error) => void;
  readonly #halt = new AbortController();
  #onAbort = () => this.fail(abortedError(this.signal!));

  constructor(
    readonly signal: AbortSignal | undefined,
    readonly timeoutMs: number,
  ) {
    this.failed = new Promise<never>((_, reject) => (this.#reject = reject));
    this.failed.catch(() => undefined);
    if (signal?.aborted) this.#onAbort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get error(): Error | undefined {
    return this.#error;
  }

  /** Aborts at the first fatal failure: for work that is not a step (helper processes such as ffprobe). */
  get halted(): AbortSignal {
    return this.#halt.signal;
  }

  /** Records the first fatal failure; every step in flight and every later step rejects with it. */
  fail(error: Error): void {
    if (this.#error) return;
    this.#error = error;
    this.#reject(error);
    this.#halt.abort(error);
  }

  /** Throws the recorded failure, if any. */
  check(): void {
    if (this.#error) throw this.#error;
  }

  /**
   * Awaits `promise`, unless the render failed, was aborted or `what` took longer than `timeoutMs`. The promise is
   * owned from here on: when the step gives up on it (the render failed before or while it ran), its later
   * rejection — a CDP command cut off when the browser is closed, FFmpeg killed — is dropped, never left unhandled
   * (Node would end the process, and with it a service running other renders).
   */
  step<T>(what: string, promise: Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    promise.catch(() => undefined);
    return this.#race(what, promise, timeoutMs);
  }

  async #race<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
    this.check();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = renderError(RenderErrorCode.timeout, `${what} took longer than ${timeoutMs} ms`);
        this.fail(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([promise, this.failed, timeout]);
    } catch (error) {
      // A lost pipe is a symptom; the browser's exit (reported with its stderr) is the cause worth reporting.
      if (error instanceof CdpError && error.closed && !this.#error) {
        await Promise.race([
          this.failed.catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, CRASH_REPORT_WAIT_MS)),
        ]);
      }
      throw this.#error ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.#onAbort);
  }
}
