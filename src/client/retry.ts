import { abortedError } from './errors.js';

/** How long the client keeps trying a call that failed in a way worth retrying. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 6. */
  readonly maxAttempts?: number;
  /** First backoff step; each further step doubles, up to `maxDelayMs`. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** Longest backoff between two attempts (a `Retry-After` may ask for longer, within the budget). Default 20 s. */
  readonly maxDelayMs?: number;
  /** Total time from the first attempt after which no retry starts. Default 60 s. */
  readonly budgetMs?: number;
}
export type RetryPolicy = Required<RetryOptions>;
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 20_000, budgetMs: 60_000 };
export const NO_RETRY: RetryPolicy = { ...DEFAULT_RETRY, maxAttempts: 1 };

/** `Retry-After` (RFC 9110: delay-seconds or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? undefined : Math.max(0, date - now);
}

/** Capped exponential backoff with full jitter: a random delay up to `base · 2^(attempt-1)`, at most `maxDelayMs`. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)));
}

/** Waits `ms`, or rejects with `aborted` as soon as `signal` aborts; leaves no timer or listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
