import { verify, type KeyObject } from 'node:crypto';
import { SIGNING_ALG } from './constants.js';

export interface VerifiedJws {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies a compact JWS signed with ES256 by one of `keys` (by `kid`); undefined when it is not such a token
 * or the signature does not verify. Only ES256 is accepted — the algorithm comes from us, never from the token.
 */
export function verifyCompactJws(token: string, keys: ReadonlyMap<string, KeyObject>): VerifiedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => SEGMENT.test(part))) return undefined;
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = decodeJson(encodedHeader);
  if (!header || header.alg !== SIGNING_ALG || typeof header.kid !== 'string' || header.crit !== undefined)
    return undefined;
  const key = keys.get(header.kid);
  if (!key) return undefined;
  const signature = Buffer.from(encodedSignature, 'base64url');
  // ES256 signatures are r || s, 64 bytes (RFC 7518 §3.4), not DER.
  if (signature.length !== 64) return undefined;
  const valid = verify(
    'sha256',
    Buffer.from(`${encodedHeader}.${encodedPayload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    signature,
  );
  if (!valid) return undefined;
  const payload = decodeJson(encodedPayload);
  return payload && { header, payload };
}

/** The `kid` a compact JWS's header names, if it is one. */
export function jwsKeyId(token: string): string | undefined {
  const [encodedHeader] = token.split('.');
  const kid = encodedHeader && SEGMENT.test(encodedHeader) ? decodeJson(encodedHeader)?.kid : undefined;
  return typeof kid === 'string' ? kid : undefined;
}

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
