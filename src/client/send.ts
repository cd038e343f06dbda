import { Header } from '../wire/constants.js';
import { abortedError, ClientErrorCode, FxApiError, isRetryableStatus } from './errors.js';
import type { ClientConfig } from './options.js';
import { readLimited } from './read-response.js';
import { backoffDelay, parseRetryAfter, sleep } from './retry.js';

/** One logical request. Its body must be sendable again (bytes, a string, a Blob): a retry sends it unchanged. */
export interface Outgoing {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Absolute URL. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | Blob | string;
  /**
   * Whether sending it twice does no harm (GET, DELETE, a POST with an `Idempotency-Key`). Only such requests are
   * retried after a network error or a retryable status.
   */
  readonly idempotent: boolean;
  /** Send the credentials (`/v3` calls), or nothing of the kind (signed links: plain fetch, `credentials: 'omit'`). */
  readonly authorize: boolean;
  readonly signal?: AbortSignal | undefined;
  /**
   * Read the answer's body within the attempt, up to this many bytes (the returned `Response` holds it): an answer
   * that breaks off mid-body is then retried like a lost one. Left out for downloads, which stream.
   */
  readonly bodyLimit?: number;
}

/**
 * Sends a request and returns the last answer: retried on network errors, 408, 409, 429 and 5xx while the retry
 * policy allows (honouring `Retry-After`), and replayed once after `credentials.refresh` when a 401 came back. An
 * answer that is not retried is returned as is, whatever its status; the `process…Response` functions read it.
 * Throws `aborted` when `signal` aborts and `network_error` when no answer came within the budget.
 */
export async function send(config: ClientConfig, request: Outgoing): Promise<Response> {
  const { signal } = request;
  const started = Date.now();
  const credentials = request.authorize ? config.credentials : undefined;
  let refreshed = false;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedError(signal);
    const authorization = credentials && (await fromCredentials(() => credentials.authorization()));
    const headers = new Headers(request.headers);
    if (authorization !== undefined) headers.set(Header.authorization, authorization);
    let response: Response;
    try {
      response = await config.fetch(request.url, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: signal ?? null,
        // Bearer tokens only: no cookies, and a redirect is not followed with the credential attached.
        credentials: 'omit',
        redirect: request.authorize ? 'manual' : 'follow',
      } as RequestInit);
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      const failure = new FxApiError(
        ClientErrorCode.networkError,
        `no answer from ${new URL(request.url).origin}: ${messageOf(error)}`,
        { retryable: true, cause: error },
      );
      if (request.idempotent && (await pause(config, attempt, started, undefined, signal))) continue;
      throw failure;
    }
    if (response.status === 401 && credentials !== undefined && !refreshed) {
      refreshed = true;
      // The service scopes idempotency keys to the credential's grant, which a refresh keeps: the replay is the same request.
      if (await fromCredentials(() => credentials.refresh(authorization))) {
        await discard(response);
        attempt--;
        continue;
      }
    }
    if (request.idempotent && isRetryableStatus(response.status)) {
      const retryAfter = parseRetryAfter(response.headers.get(Header.retryAfter), Date.now());
      if (await pause(config, attempt, started, retryAfter, signal, () => discard(response))) continue;
    }
    if (request.bodyLimit === undefined) return response;
    try {
      return await buffered(response, request.bodyLimit, signal);
    } catch (error) {
      const brokeOff = error instanceof FxApiError && error.code === ClientErrorCode.networkError;
      if (brokeOff && request.idempotent && (await pause(config, attempt, started, undefined, signal))) continue;
      throw error;
    }
  }
}

/** `response` with its body read (a manual redirect's opaque answer has none to read). */
async function buffered(response: Response, maxBytes: number, signal: AbortSignal | undefined): Promise<Response> {
  if (response.type === 'opaqueredirect' || response.status < 200) return response;
  const bytes = await readLimited(response, maxBytes, signal);
  const { status, statusText, headers } = response;
  return new Response(NULL_BODY_STATUSES.has(status) ? null : (bytes as Uint8Array<ArrayBuffer>), {
    status,
    statusText,
    headers,
  });
}

/** Statuses whose `Response` may not have a body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Waits before the next attempt when the policy allows one: `Retry-After` when given, else backoff. Resolves
 * false, without waiting, when the attempts or the time budget would run out.
 */
async function pause(
  config: ClientConfig,
  attempt: number,
  started: number,
  retryAfter: number | undefined,
  signal: AbortSignal | undefined,
  beforeWait?: () => Promise<void>,
): Promise<boolean> {
  const { retry } = config;
  if (attempt >= retry.maxAttempts) return false;
  const delay = retryAfter ?? backoffDelay(attempt, retry);
  if (Date.now() + delay - started > retry.budgetMs) return false;
  await beforeWait?.();
  await sleep(delay, signal);
  return true;
}

/** A credentials call; its failure (storage, a refresh refused by the authorization server) is `auth_required`. */
async function fromCredentials<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof FxApiError) throw error;
    throw new FxApiError(ClientErrorCode.authRequired, `the credentials failed: ${messageOf(error)}; sign in again`, {
      cause: error,
    });
  }
}

/** Frees the connection of an answer nobody reads. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

const messageOf = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return [error instanceof Error ? error.message : String(error), cause?.code ?? cause?.message]
    .filter(Boolean)
    .join(': ');
};
