import { ErrorCode, IDEMPOTENCY_KEY_PATTERN, MAX_PAGE_SIZE } from '../wire/constants.js';
import { describe } from '../wire/describe.js';
import { refused } from './errors.js';

/**
 * Ids are opaque (`rnd_…`), but one goes into a URL path: only the characters ids are made of pass, so `../`, `?`,
 * `#`, `%` or a slash can never change which route is called.
 */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;

export function checkId(value: unknown, param: string): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw refused(
      ErrorCode.parameterInvalid,
      `"${param}" must be an id of 1 to 255 characters of [A-Za-z0-9_-], got ${describe(value)}`,
      param,
    );
  }
  return value;
}

/** The caller's key, checked as the service checks it, or a new random one for this logical operation. */
export function idempotencyKey(value: unknown): string {
  return value === undefined ? newIdempotencyKey() : checkIdempotencyKey(value);
}

/** A caller's key, refused unless 1–255 characters of `[A-Za-z0-9_:.-]`. */
export function checkIdempotencyKey(value: unknown): string {
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw refused(
      ErrorCode.idempotencyKeyInvalid,
      `"Idempotency-Key" must be 1 to 255 characters of [A-Za-z0-9_:.-], got ${describe(value)}`,
      'Idempotency-Key',
    );
  }
  return value;
}

/** 128 random bits. `crypto.getRandomValues`, unlike `randomUUID`, also exists on plain-http pages. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `fx-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function checkLimit(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw refused(
      ErrorCode.parameterInvalid,
      `"limit" must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${describe(value)}`,
      'limit',
    );
  }
  return value;
}

export function checkString(value: unknown, param: string, maxLength: number): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > maxLength) {
    throw refused(
      ErrorCode.parameterInvalid,
      `"${param}" must be a string of 1 to ${maxLength} characters, got ${describe(value)}`,
      param,
    );
  }
  return value;
}
