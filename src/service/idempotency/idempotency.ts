import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { ErrorCode, Header, IDEMPOTENCY_KEY_PATTERN } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import type { ServiceEnv } from '../http/env.js';
import type { IdempotencyStore } from './idempotency-store.js';

/**
 * How long a request may hold its key: past this, a key still in flight is taken to be a dead process's. The body
 * is read before the key is claimed, so this bounds the work after it (storing, unpacking, checks), not the upload.
 */
export const IN_FLIGHT_LIMIT_MS = 600_000;

export interface IdempotencyOptions {
  readonly store: IdempotencyStore;
  readonly ttlSeconds: number;
  readonly now: () => number;
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
    const scope = { credentialId: c.var.principal.credentialId, endpoint, key };
    const now = options.now();
    const begun = await options.store.begin(
      scope,
      requestHash(c.req.raw, c.var.body),
      now,
      now + options.ttlSeconds * 1000,
      now - IN_FLIGHT_LIMIT_MS,
    );
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
      await options.store.release(scope);
      throw error;
    }
    if (c.res.status >= 200 && c.res.status < 300)
      await options.store.complete(scope, c.res.status, await c.res.clone().text());
    else await options.store.release(scope);
  };
}
