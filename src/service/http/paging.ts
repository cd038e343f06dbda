import { DEFAULT_PAGE_SIZE, ErrorCode, MAX_PAGE_SIZE } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';

const TOKEN_VERSION = 'v1';

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PAGE_SIZE;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new ServiceError(
      ErrorCode.parameterInvalid,
      `"limit" must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(value)}`,
      { param: 'limit' },
    );
  }
  return limit;
}

/** The cursor is opaque to clients: the last row's position, versioned so the format can change. */
export function encodeListToken(seq: number): string {
  return Buffer.from(`${TOKEN_VERSION}:${seq}`).toString('base64url');
}

export function decodeListToken(token: string): number {
  const match = /^v1:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!match)
    throw new ServiceError(
      ErrorCode.parameterInvalid,
      `"token" must be a "next_token" from a previous page, got ${JSON.stringify(token.slice(0, 40))}`,
      { param: 'token' },
    );
  return Number(match[1]);
}
