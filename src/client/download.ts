import { ErrorCode, Header, RenderStatus } from '../wire/constants.js';
import type { Render } from '../wire/responses.js';
import { getRenderRequest, processGetRenderResponse } from './calls.js';
import { checkId } from './checks.js';
import { abortedError, ClientErrorCode, FxApiError, refused } from './errors.js';
import type { ClientConfig } from './options.js';
import { errorFromResponse } from './read-response.js';
import { send } from './send.js';

export interface DownloadProgress {
  readonly loaded: number;
  /** From `Content-Length`; undefined when the answer does not say. */
  readonly total: number | undefined;
}

export interface DownloadOptions {
  /** `video` (default) or the `thumbnail`. */
  readonly file?: 'video' | 'thumbnail';
  readonly signal?: AbortSignal;
  /** Called as bytes arrive. */
  readonly onProgress?: (progress: DownloadProgress) => void;
}

export interface DownloadedFile<Body> {
  readonly body: Body;
  /** The file's content type, e.g. `video/mp4`. */
  readonly contentType: string;
  readonly size: number | undefined;
  /** The record the link came from (a fresh one when the first link had expired). */
  readonly render: Render;
}

/**
 * The signed link's answer for a completed render. The link (the service's own, or an S3 presigned URL) is the
 * credential: it is fetched with a plain request (no `Authorization`, `credentials: 'omit'`). An expired link
 * (`signed_url_expired`, or a 403 without the service's error body, as S3 answers) gets one fresh record from
 * `getRender` and one more try.
 */
async function openFile(
  config: ClientConfig,
  render: Render | string,
  options: DownloadOptions,
): Promise<{ response: Response; render: Render }> {
  const { signal } = options;
  const getRender = async (id: string) =>
    processGetRenderResponse(config, await getRenderRequest(config, id, { signal }), signal);
  let record = typeof render === 'string' ? await getRender(checkId(render, 'render_id')) : render;
  for (let regot = false; ; regot = true) {
    if (record.status !== RenderStatus.completed) {
      throw refused(
        ClientErrorCode.renderNotCompleted,
        `render ${JSON.stringify(record.render_id)} is ${record.status}, not completed; nothing to download`,
        'render_id',
      );
    }
    // A record from a service older than retention, or made by hand, may lack the field.
    if (typeof record.files_expired_at === 'string') {
      throw refused(
        ClientErrorCode.renderFilesExpired,
        `render ${JSON.stringify(record.render_id)}'s files were removed by the service's retention (expired ${record.files_expired_at}); render it again`,
        'render_id',
      );
    }
    const link = options.file === 'thumbnail' ? record.thumbnail_url : record.video_url;
    const url = checkLink(link);
    const response = await send(config, { method: 'GET', url, idempotent: true, authorize: false, signal });
    if (response.ok) return { response, render: record };
    const error = await errorFromResponse(response, signal);
    // The service's links say `signed_url_expired`; an S3 presigned URL past its time is a bare 403 (XML body).
    const expired =
      error.code === ErrorCode.signedUrlExpired || (error.code === ClientErrorCode.httpError && error.status === 403);
    if (!expired || regot) throw error;
    record = await getRender(record.render_id);
  }
}

function checkLink(link: string | null): string {
  if (link === null || !URL.canParse(link) || !/^https?:$/.test(new URL(link).protocol)) {
    throw new FxApiError(
      ClientErrorCode.responseInvalid,
      `the render's signed link must be an http: or https: URL, got ${JSON.stringify(link?.slice(0, 60) ?? null)}`,
    );
  }
  return link;
}

/** Counts bytes as they pass and reports them; a body cut short surfaces as `network_error`, an abort as `aborted`. */
function counted(response: Response, options: DownloadOptions): ReadableStream<Uint8Array> {
  const total = contentLength(response);
  let loaded = 0;
  const { signal } = options;
  const reader = response.body!.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          if (total !== undefined && loaded !== total) throw new Error(`got ${loaded} of ${total} bytes`);
          controller.close();
          return;
        }
        loaded += value.byteLength;
        controller.enqueue(value);
        options.onProgress?.({ loaded, total });
      } catch (error) {
        controller.error(
          signal?.aborted
            ? abortedError(signal)
            : new FxApiError(
                ClientErrorCode.networkError,
                `the download broke off: ${(error as Error)?.message ?? error}`,
                { retryable: true, cause: error },
              ),
        );
        await reader.cancel().catch(() => {});
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A completed render's video (or thumbnail) as a stream of bytes, with byte progress. */
export async function downloadRenderStream(
  config: ClientConfig,
  render: Render | string,
  options: DownloadOptions = {},
): Promise<DownloadedFile<ReadableStream<Uint8Array>>> {
  const opened = await openFile(config, render, options);
  return describeFile(opened.response, counted(opened.response, options), opened.render);
}

/** A completed render's video (or thumbnail) as a Blob, with byte progress. */
export async function downloadRender(
  config: ClientConfig,
  render: Render | string,
  options: DownloadOptions = {},
): Promise<DownloadedFile<Blob>> {
  const opened = await openFile(config, render, options);
  const stream = counted(opened.response, options);
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const file = describeFile(opened.response, undefined, opened.render);
  return { ...file, body: new Blob(parts as BlobPart[], { type: file.contentType }) };
}

function describeFile<Body>(response: Response, body: Body, render: Render): DownloadedFile<Body> {
  return {
    body,
    contentType: response.headers.get(Header.contentType) ?? 'application/octet-stream',
    size: contentLength(response),
    render,
  };
}

/** The `Content-Length` an answer declares, when it is a plain count of bytes. */
function contentLength(response: Response): number | undefined {
  const declared = response.headers.get(Header.contentLength);
  return declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
}
