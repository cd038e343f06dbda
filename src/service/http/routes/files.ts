import type { Hono } from 'hono';
import { Readable } from 'node:stream';
import { parseByteRange, type ByteRange } from '../../../render/byte-range.js';
import { contentTypeOf } from '../../../render/content-types.js';
import { ErrorCode, Header, Route } from '../../../wire/constants.js';
import type { ServiceContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import { filePath } from '../../renders/links.js';
import { StorageKey } from '../../storage/keys.js';
import type { ServiceEnv } from '../env.js';

/**
 * `GET /v3/files/renders/{render_id}/{file}?expires=&signature=`: the signed links of `video_url` and
 * `thumbnail_url`. The link is the credential; an Authorization header is refused so a client that would leak
 * its token to a presigned URL notices in development. One byte range is served as 206 (players seek with it);
 * several ranges, or a `Range` with `If-Range` (there is no validator to compare), get the whole file.
 */
export function fileRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  app.get(`${Route.files}/renders/:render_id/:file`, async (c) => {
    if (c.req.header(Header.authorization) !== undefined) {
      throw new ServiceError(
        ErrorCode.credentialsNotAccepted,
        'signed links carry their own signature; send no "Authorization" header',
        { param: 'Authorization' },
      );
    }
    const renderId = c.req.param('render_id');
    const file = c.req.param('file');
    const key = `${StorageKey.render(renderId)}/${file}`;
    const check = context.signer.check(
      filePath(key),
      c.req.query('expires'),
      c.req.query('signature'),
      Math.floor(context.config.now() / 1000),
    );
    if (check === 'invalid')
      throw new ServiceError(
        ErrorCode.signedUrlInvalid,
        'the link signature does not match; get the render again for a fresh link',
        { param: 'signature' },
      );
    if (check === 'expired')
      throw new ServiceError(
        ErrorCode.signedUrlExpired,
        'the link has expired; get the render again for a fresh link',
        { param: 'expires' },
      );
    const render = await context.renders.find(renderId);
    const stored =
      render && (key === render.videoKey || key === render.thumbnailKey) ? await context.storage.open(key) : undefined;
    if (!stored)
      throw new ServiceError(
        ErrorCode.fileNotFound,
        `no file ${JSON.stringify(file)} for render ${JSON.stringify(renderId)}`,
      );

    const requested = c.req.header(Header.range);
    const range = c.req.header(Header.ifRange) === undefined ? parseByteRange(requested, stored.size) : undefined;
    if (range === 'unsatisfiable') {
      throw new ServiceError(
        ErrorCode.rangeNotSatisfiable,
        `"Range" must name bytes of a file of ${stored.size} bytes, got ${JSON.stringify(requested?.slice(0, 100))}`,
        {
          param: 'Range',
          headers: { [Header.contentRange]: `bytes */${stored.size}` },
        },
      );
    }
    const headers = {
      [Header.contentType]: contentTypeOf(file),
      [Header.acceptRanges]: 'bytes',
      'cache-control': 'private, no-store',
    };
    // HEAD (answered by this GET route) opens no file: nobody would read, or close, the stream.
    const body = (part?: ByteRange) =>
      c.req.method === 'HEAD' ? null : (Readable.toWeb(stored.stream(part)) as ReadableStream);
    if (range === undefined)
      return new Response(body(), { headers: { ...headers, [Header.contentLength]: String(stored.size) } });
    return new Response(body(range), {
      status: 206,
      headers: {
        ...headers,
        [Header.contentLength]: String(range.end - range.start + 1),
        [Header.contentRange]: `bytes ${range.start}-${range.end}/${stored.size}`,
      },
    });
  });
}
