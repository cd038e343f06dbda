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
  /**
   * The storage's own presigned URLs (S3), used instead of the service's `/v3/files/…` links when given: the
   * bytes then go from the bucket to the client, not through the service.
   */
  readonly presign?: ((key: string, expiresInSeconds: number) => Promise<string>) | undefined;
}

/** The public path of a stored file: `/v3/files/renders/<id>/video.mp4`. */
export const filePath = (key: string) => `${Route.files}/${key}`;

/**
 * Fresh links to a completed render's files (nulls before that, and once retention expired them); either kind is
 * the credential itself.
 */
export async function signedLinks(
  render: RenderRow,
  { signer, ttlSeconds, baseUrl, now, presign }: LinkSigner,
): Promise<SignedLinks> {
  if (render.videoKey === null || render.thumbnailKey === null || render.filesExpiredAt !== null)
    return { video_url: null, thumbnail_url: null, expires_at: null };
  const expires = Math.floor(now / 1000) + ttlSeconds;
  const link = async (key: string) => {
    if (presign) return presign(key, ttlSeconds);
    const path = filePath(key);
    return `${baseUrl}${path}?expires=${expires}&signature=${signer.sign(path, expires)}`;
  };
  const [video_url, thumbnail_url] = await Promise.all([link(render.videoKey), link(render.thumbnailKey)]);
  return { video_url, thumbnail_url, expires_at: new Date(expires * 1000).toISOString() };
}
