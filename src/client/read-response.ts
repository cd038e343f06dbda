import type * as z from 'zod/mini';
import type { Issue } from '../runtime/issues.js';
import { Header, JSON_CONTENT_TYPE } from '../wire/constants.js';
import { errorBodySchema } from '../wire/responses.js';
import { abortedError, ClientErrorCode, FxApiError, isRetryableStatus } from './errors.js';

const ERROR_BODY_BYTES = 1024 * 1024;

/**
 * The typed body of a success answer, or the typed error: `status` must be `expected` (201 for an upload, 202
 * for a submit, 200 otherwise) and the body JSON of `schema`'s shape (extra fields kept). An error status becomes
 * the service's error (`code`, `param`, `issues`); anything else `response_invalid`.
 */
export async function processJson<Schema extends z.ZodMiniType>(
  response: Response,
  expected: number,
  schema: Schema,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<z.infer<Schema>> {
  if (response.status !== expected) {
    if (response.ok) await response.body?.cancel().catch(() => {});
    throw response.ok
      ? invalid(`expected status ${expected}, got ${response.status}`, response.status)
      : await errorFromResponse(response, signal);
  }
  const body = await readJson(response, maxBytes, signal);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalid(
      `the answer does not match the /v3 contract: ${first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'wrong shape'}`,
      response.status,
      parsed.error,
    );
  }
  return parsed.data;
}

/** The error an error answer stands for. A 401 is `auth_required` (the credential was refreshed already, or there is none). */
export async function errorFromResponse(response: Response, signal?: AbortSignal): Promise<FxApiError> {
  const { status } = response;
  let body: z.infer<typeof errorBodySchema> | undefined;
  try {
    const parsed = errorBodySchema.safeParse(await readJson(response, ERROR_BODY_BYTES, signal));
    body = parsed.success ? parsed.data : undefined;
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  const retryable = isRetryableStatus(status);
  if (status === 401) {
    return new FxApiError(
      ClientErrorCode.authRequired,
      `the service refused the credential${body ? ` (${body.error.code}: ${body.error.message})` : ''}; sign in again or use a valid API key`,
      {
        status,
        param: body?.error.param ?? null,
        cause: body?.error,
      },
    );
  }
  if (!body) {
    return new FxApiError(
      ClientErrorCode.httpError,
      `the service answered ${status}${response.statusText ? ` ${response.statusText}` : ''} without an error body`,
      { status, retryable },
    );
  }
  const { code, message, param, issues } = body.error;
  return new FxApiError(code, message, {
    status,
    param: param ?? null,
    retryable,
    ...(issues ? { issues: issues as Issue[] } : {}),
  });
}

/** The body as JSON, read up to `maxBytes`: a larger, non-JSON or truncated body is `response_invalid`. */
export async function readJson(response: Response, maxBytes: number, signal?: AbortSignal): Promise<unknown> {
  const type = response.headers.get(Header.contentType) ?? '';
  const mediaType = type.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== JSON_CONTENT_TYPE && !mediaType.endsWith('+json')) {
    await response.body?.cancel().catch(() => {});
    throw invalid(`expected a JSON answer, got ${JSON.stringify(type || 'no content type')}`, response.status);
  }
  const bytes = await readLimited(response, maxBytes, signal);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw invalid('the answer is not UTF-8 JSON', response.status, error);
  }
}

/** The body's bytes, read up to `maxBytes` (more is `response_invalid`; a read that breaks off, `network_error`). */
export async function readLimited(response: Response, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get(Header.contentLength));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes, response.status);
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes, response.status);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof FxApiError) throw error;
    if (signal?.aborted) throw abortedError(signal);
    throw new FxApiError(
      ClientErrorCode.networkError,
      `the answer broke off while being read: ${(error as Error)?.message ?? error}`,
      { retryable: true, cause: error },
    );
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

const tooLarge = (maxBytes: number, status: number) => invalid(`the answer is larger than ${maxBytes} bytes`, status);

function invalid(message: string, status: number, cause?: unknown): FxApiError {
  return new FxApiError(ClientErrorCode.responseInvalid, message, { status, cause });
}
