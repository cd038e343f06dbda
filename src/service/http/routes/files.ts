import type { Hono } from 'hono';
import { Readable } from 'node:stream';
import { ErrorCode, Header, Route } from '../../constants.js';
import type { ServiceContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import { filePath } from '../../renders/links.js';
import { StorageKey } from '../../storage/keys.js';
import type { ServiceEnv } from '../env.js';

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * `GET /v3/files/renders/{render_id}/{file}?expires=&signature=`: the signed links of `video_url` and
 * `thumbnail_url`. The link is the credential; an Authorization header is refused so a client that would leak
 * its token to a presigned URL notices in development.
 */
export function fileRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  app.get(`${Route.files}/renders/:render_id/:file`, async (c) => {
    if (c.req.header(Header.authorization) !== undefined) {
      throw new ServiceError(ErrorCode.credentialsNotAccepted, 'signed links carry their own signature; send no "Authorization" header', { param: 'Authorization' });
    }
    const renderId = c.req.param('render_id');
    const file = c.req.param('file');
    const key = `${StorageKey.render(renderId)}/${file}`;
    const check = context.signer.check(filePath(key), c.req.query('expires'), c.req.query('signature'), Math.floor(context.config.now() / 1000));
    if (check === 'invalid') throw new ServiceError(ErrorCode.signedUrlInvalid, 'the link signature does not match; get the render again for a fresh link', { param: 'signature' });
    if (check === 'expired') throw new ServiceError(ErrorCode.signedUrlExpired, 'the link has expired; get the render again for a fresh link', { param: 'expires' });
    const render = await context.renders.find(renderId);
    const stored = render && (key === render.videoKey || key === render.thumbnailKey) ? await context.storage.open(key) : undefined;
    if (!stored) throw new ServiceError(ErrorCode.fileNotFound, `no file ${JSON.stringify(file)} for render ${JSON.stringify(renderId)}`);
    const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
    return new Response(Readable.toWeb(stored.stream) as ReadableStream, {
      headers: {
        [Header.contentType]: CONTENT_TYPES[extension] ?? 'application/octet-stream',
        [Header.contentLength]: String(stored.size),
        'cache-control': 'private, no-store',
      },
    });
  });
}
