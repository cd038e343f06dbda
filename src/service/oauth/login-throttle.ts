/**
 * Counts failed sign-ins per account name and client address in a sliding window. After `maxFailures` inside
 * `windowMs`, that pair is refused without checking the password until the oldest of those failures leaves the
 * window; a success clears the pair. Other addresses can still sign in to the account, so one attacker cannot
 * lock its owner out. In memory: a restart forgets, and the table is capped so a flood of names cannot grow it.
 */
export class LoginThrottle {
  /** Failure times (epoch ms, oldest first) by key; Map order = least recently failed first, for eviction. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `account` may try again from `address`; 0 when it may now. */
  retryAfterMs(account: string, address: string, now: number): number {
    const recent = this.recent(keyOf(account, address), now);
    return recent.length < this.maxFailures ? 0 : recent[recent.length - this.maxFailures]! + this.windowMs - now;
  }

  recordFailure(account: string, address: string, now: number): void {
    const key = keyOf(account, address);
    const recent = [...this.recent(key, now), now].slice(-this.maxFailures);
    this.failures.delete(key);
    this.failures.set(key, recent);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  recordSuccess(account: string, address: string): void {
    this.failures.delete(keyOf(account, address));
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const recent = times.filter((time) => time > now - this.windowMs);
    if (recent.length === 0) this.failures.delete(key);
    return recent;
  }
}

const keyOf = (account: string, address: string) => `${account}\u0000${address}`;
