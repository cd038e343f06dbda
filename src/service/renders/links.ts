import { Route } from '../../wire/constants.js';
import type { UrlSigner } from '../signing/url-signer.js';
import type { RenderRow } from './render-types.js';

export interface SignedLinks {
  readonly video_url: string | null;
  readonly thumbnail_url: string | null;
  readonly expires_at: string | null;
}

export interface LinkSigner {
  readonly signer: UrlSigner;
  readonly ttlSeconds: number;
  /** Origin the links point at, e.g. `http://127.0.0.1:8787`. */
  readonly baseUrl: string;
  readonly now: number;
}

/** The public path of a stored file: `/v3/files/renders/<id>/video.mp4`. */
export const filePath = (key: string) => `${Route.files}/${key}`;

/** Fresh signed links to a completed render's files (nulls before that). */
export function signedLinks(render: RenderRow, { signer, ttlSeconds, baseUrl, now }: LinkSigner): SignedLinks {
  if (render.videoKey === null || render.thumbnailKey === null)
    return { video_url: null, thumbnail_url: null, expires_at: null };
  const expires = Math.floor(now / 1000) + ttlSeconds;
  const link = (key: string) => {
    const path = filePath(key);
    return `${baseUrl}${path}?expires=${expires}&signature=${signer.sign(path, expires)}`;
  };
  return {
    video_url: link(render.videoKey),
    thumbnail_url: link(render.thumbnailKey),
    expires_at: new Date(expires * 1000).toISOString(),
  };
}
