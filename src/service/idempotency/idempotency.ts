import type { Context, MiddlewareHandler } from 'hono';
import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode, Header, IDEMPOTENCY_KEY_PATTERN } from '../../wire/constants.js';
import { isCommitOutcomeUnknown } from '../db/errors.js';
import { ServiceError } from '../errors.js';
import type { ServiceEnv } from '../http/env.js';
import type { ServiceEvents } from '../observe/events.js';
import type { IdempotencyBegin, IdempotencyStore } from './idempotency-store.js';

/**
 * How long a request may hold its key: past this, a key still in flight is taken to be a dead process's. The body
 * is read before the key is claimed, so this bounds the work after it (storing, unpacking, checks), not the upload.
 */
export const IN_FLIGHT_LIMIT_MS = 600_000;

/**
 * Waits between tries to record a request's outcome on its key while the database is away (about a minute in all).
 * Without them the key stayed in flight for `IN_FLIGHT_LIMIT_MS` and every retry was refused as in progress (found
 * by the fault matrix: a connection cut between the request's work and its answer).
 */
export const SETTLE_RETRY_MS = [100, 400, 1_500, 5_000, 15_000, 40_000] as const;

export interface IdempotencyOptions {
  readonly store: IdempotencyStore;
  readonly ttlSeconds: number;
  readonly now: () => number;
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
  /** Told of each request refused for its key (`idempotencyConflicted`). */
  readonly events?: ServiceEvents;
  /** Requests whose key is checked for its form only, then neither claimed nor recorded. */
  readonly unless?: (c: Context<ServiceEnv>) => boolean;
}

/**
 * Records the outcome on the key (`complete` or `release`); when the database refuses, tries again in the background
 * and lets the request answer meanwhile: retries of it are told the key is in progress until then, and get the
 * remembered answer (or run again, after a release) once it landed.
 */
function settle(work: () => Promise<void>, log: IdempotencyOptions['log'], key: string): Promise<void> {
  const later = (tries: number): void => {
    setTimeout(
      () =>
        work().catch((error) => {
          if (tries + 1 < SETTLE_RETRY_MS.length) later(tries + 1);
          else log?.('idempotency key left in flight', { key, error: String(error) });
        }),
      SETTLE_RETRY_MS[tries],
    ).unref();
  };
  return work().catch(() => later(0));
}

/** What makes two requests "the same": method, path, query, content type and the exact body bytes. */
function requestHash(request: Request, body: Uint8Array): string {
  const url = new URL(request.url);
  return createHash('sha256')
    .update(`${request.method}\n${url.pathname}\n${url.search}\n${request.headers.get(Header.contentType) ?? ''}\n`)
    .update(body)
    .digest('hex');
}

/**
 * `Idempotency-Key` for one endpoint (`endpoint` names it, e.g. `POST /v3/renders`). Runs after authentication
 * (keys are per credential) and after the body was read into `c.var.body`. Only successful (2xx) answers are
 * remembered; anything else releases the key so a corrected retry runs.
 */
export function idempotency(endpoint: string, options: IdempotencyOptions): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const key = c.req.header(Header.idempotencyKey);
    if (key === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new ServiceError(
        ErrorCode.idempotencyKeyInvalid,
        `"Idempotency-Key" must be 1 to 255 characters of [A-Za-z0-9_:.-], got ${JSON.stringify(key.length > 40 ? `${key.slice(0, 37)}...` : key)}`,
        { param: 'Idempotency-Key' },
      );
    }
    if (options.unless?.(c)) return next();
    const hold = { credentialId: c.var.principal.credentialId, endpoint, key, claim: randomUUID() };
    const release = () => settle(() => options.store.release(hold), options.log, key);
    const now = options.now();
    let begun: IdempotencyBegin;
    try {
      begun = await options.store.begin(
        hold,
        requestHash(c.req.raw, c.var.body),
        now,
        now + options.ttlSeconds * 1000,
        now - IN_FLIGHT_LIMIT_MS,
      );
    } catch (error) {
      // Its claim may have landed (a commit of unknown outcome, found by the fault matrix): the key would stay in
      // flight, refusing every retry, until IN_FLIGHT_LIMIT_MS. Nothing was done yet; only this claim is let go.
      await release();
      throw error;
    }
    if (begun.state === 'mismatch' || begun.state === 'in_progress')
      options.events?.emit('idempotencyConflicted', {
        endpoint,
        reason: begun.state,
        credentialId: hold.credentialId,
      });
    switch (begun.state) {
      case 'mismatch':
        throw new ServiceError(
          ErrorCode.idempotencyKeyReused,
          `"Idempotency-Key" ${JSON.stringify(key)} was already used with a different request`,
          {
            param: 'Idempotency-Key',
          },
        );
      case 'in_progress':
        throw new ServiceError(
          ErrorCode.idempotencyKeyInProgress,
          `a request with "Idempotency-Key" ${JSON.stringify(key)} is still being processed`,
          {
            param: 'Idempotency-Key',
          },
        );
      case 'replay':
        return new Response(begun.body, {
          status: begun.status,
          headers: { [Header.contentType]: 'application/json', [Header.idempotentReplayed]: 'true' },
        });
    }
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    // A handler's throw is answered by the app's error handler, which keeps it in `c.error`.
    if (c.res.status >= 200 && c.res.status < 300) {
      const status = c.res.status;
      const body = await c.res.clone().text();
      await settle(() => options.store.complete(hold, status, body), options.log, key);
    } else if (isCommitOutcomeUnknown(c.error)) {
      // Its work may have landed: the key stays in flight (retries are told so) rather than let a retry repeat it.
      options.log?.('idempotency key left in flight', { key, error: String(c.error) });
    } else await release();
  };
}
