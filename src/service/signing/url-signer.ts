import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Signs links to stored files: base64url(HMAC-SHA256(secret, "GET\n" + path + "\n" + expires)). The link is
 * the credential, so it is short-lived and bound to one path; it never carries or needs an Authorization header.
 */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  sign(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`GET\n${path}\n${expires}`).digest('base64url');
  }

  /** A tampered link is `invalid` whatever its expiry; only an authentic one can be `expired`. */
  check(path: string, expires: string | undefined, signature: string | undefined, nowSeconds: number): SignatureCheck {
    if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(path, Number(expires)));
    const given = Buffer.from(signature);
    if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) < nowSeconds ? 'expired' : 'valid';
  }
}
