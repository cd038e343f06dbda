import type { Credentials } from './credentials.js';
import { ClientErrorCode, refused } from './errors.js';
import { DEFAULT_RETRY, NO_RETRY, type RetryOptions, type RetryPolicy } from './retry.js';

/** Where and how the client talks to a `/v3` service. */
export interface ClientOptions {
  /** The service's origin (and path prefix, if any), e.g. `https://render.example.com`; relative to the page in a browser. */
  readonly baseUrl: string;
  /** Who is calling: `apiKeyCredentials(key)` or a signed-in user from `src/auth`. Without, requests carry no credential. */
  readonly credentials?: Credentials;
  /** The `fetch` to send with (tests, proxies, instrumentation). Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Retry policy for network errors, 408, 409, 429 and 5xx; `false` sends each request once. */
  readonly retry?: RetryOptions | false;
  /** Largest JSON answer read, in bytes; a larger one fails with `response_invalid`. Default 32 MiB (a page of 100 renders with big `variables`). */
  readonly maxResponseBytes?: number;
}

/** Options checked once, with defaults filled in. */
export interface ClientConfig {
  /** Without a trailing slash, so `${base}${Route.renders}` is the route. */
  readonly base: string;
  readonly credentials: Credentials | undefined;
  readonly fetch: typeof fetch;
  readonly retry: RetryPolicy;
  readonly maxResponseBytes: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const invalid = (message: string) => refused(ClientErrorCode.optionInvalid, message);

export function clientConfig(options: ClientOptions): ClientConfig {
  if (typeof options !== 'object' || options === null)
    throw invalid(`client options must be an object with "baseUrl", got ${options === null ? 'null' : typeof options}`);
  return {
    base: checkBaseUrl(options.baseUrl),
    credentials: options.credentials,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: options.retry === false ? NO_RETRY : checkRetry(options.retry ?? {}),
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
  };
}

function checkBaseUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value), (globalThis as { location?: { href: string } }).location?.href);
  } catch {
    throw invalid(`"baseUrl" must be an http: or https: URL, got ${JSON.stringify(String(value).slice(0, 100))}`);
  }
  if (typeof value !== 'string' || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw invalid(`"baseUrl" must be an http: or https: URL, got ${JSON.stringify(String(value).slice(0, 100))}`);
  }
  if (url.username || url.password) throw invalid('"baseUrl" must not carry credentials; pass them as "credentials"');
  if (url.search || url.hash)
    throw invalid(`"baseUrl" must have no query or fragment, got ${JSON.stringify(url.search + url.hash)}`);
  return url.href.replace(/\/+$/, '');
}

function checkRetry(retry: RetryOptions): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...retry };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw invalid(`"retry.maxAttempts" must be an integer of at least 1, got ${policy.maxAttempts}`);
  for (const name of ['baseDelayMs', 'maxDelayMs', 'budgetMs'] as const) positive(`retry.${name}`, policy[name], true);
  return policy;
}

function positive(name: string, value: number, zeroAllowed = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0)) {
    throw invalid(
      `"${name}" must be a ${zeroAllowed ? 'non-negative' : 'positive'} number, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
