/** One key of one credential on one endpoint. */
export interface IdempotencyScope {
  readonly credentialId: string;
  readonly endpoint: string;
  readonly key: string;
}

/**
 * One request's hold on a key: `claim` (random, the request's own) tells its in-flight row from another's with the
 * same key, so a request that does not know whether its `begin` landed can let go of exactly what it may hold.
 */
export interface IdempotencyHold extends IdempotencyScope {
  readonly claim: string;
}

export type IdempotencyBegin =
  | { readonly state: 'started' }
  | { readonly state: 'replay'; readonly status: number; readonly body: string }
  | { readonly state: 'in_progress' }
  | { readonly state: 'mismatch' };

/**
 * Remembered answers to idempotent requests (implementations: `idempotency-store.sqlite.ts`, `.postgres.ts`). Must decide `begin`
 * atomically (a unique key, a transaction).
 */
export interface IdempotencyStore {
  /**
   * Claims the key, or answers from it. A key still in flight since before `abandonedBefore` belonged to a process
   * that died mid-request (several API processes share the keys, so none clears them at start): it is taken over.
   */
  begin(
    hold: IdempotencyHold,
    requestHash: string,
    now: number,
    expiresAt: number,
    abandonedBefore: number,
  ): Promise<IdempotencyBegin>;
  /** Remembers the answer on the key, if `hold` still holds it. */
  complete(hold: IdempotencyHold, status: number, body: string): Promise<void>;
  /** Forgets the key while `hold` holds it in flight (its request did not succeed), so a retry runs again. */
  release(hold: IdempotencyHold): Promise<void>;
  /** After a restart nothing is in flight any more (the embedded service: the only process). */
  clearInFlight(): Promise<void>;
  purgeExpired(now: number): Promise<void>;
}
