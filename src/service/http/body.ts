import { ErrorCode } from '../../wire/constants.js';
import { ClientAbortedError, ServiceError } from '../errors.js';

/**
 * Reads a request body into memory, refusing it as soon as it passes `limit` bytes (from `Content-Length` before
 * reading anything, else while streaming) with `code` (413).
 */
export async function readBodyLimited(
  request: Request,
  limit: number,
  code: ErrorCode,
  what: string,
): Promise<Uint8Array> {
  const tooLarge = (got: string, headers?: Record<string, string>) =>
    new ServiceError(code, `the ${what} must be at most ${limit} bytes, got ${got}`, { headers });
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(String(declared));
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    // The body is the client's connection: it fails only when the client hangs up or breaks the framing.
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw new ClientAbortedError(`the client closed the connection after ${total} bytes of the ${what}`, {
        cause: error,
      });
    });
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // The rest of the body is dropped unread: the connection cannot carry another request.
      await reader.cancel().catch(() => {});
      throw tooLarge(`more than ${limit}`, { connection: 'close' });
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The media type of a request without parameters, lowercase (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function requireMediaType(request: Request, expected: string): void {
  const got = mediaType(request);
  if (got !== expected) {
    throw new ServiceError(
      ErrorCode.unsupportedMediaType,
      `"Content-Type" must be "${expected}", got ${JSON.stringify(got)}`,
      { param: 'Content-Type' },
    );
  }
}
