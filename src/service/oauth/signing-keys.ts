import { createPublicKey, generateKeyPairSync, randomBytes, type JsonWebKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SIGNING_ALG } from './constants.js';

/** A private signing JWK as stored in the key file and handed to oidc-provider. */
export interface SigningJwk extends JsonWebKey {
  readonly kid: string;
  readonly alg: typeof SIGNING_ALG;
  readonly use: 'sig';
}

export interface SigningKeys {
  /** The private JWKS for oidc-provider; the first key signs. */
  readonly jwks: { keys: SigningJwk[] };
  /** Public keys by `kid`, for verifying access tokens in process. */
  readonly publicKeys: ReadonlyMap<string, KeyObject>;
}

/**
 * The authorization server's signing keys, generated once (EC P-256) and kept in `file` with mode 0600 so tokens
 * stay valid across restarts. To rotate: put a new key first in the file's `keys` and keep the old one until the
 * tokens it signed have expired (refresh tokens are opaque, so only access and ID tokens are concerned).
 */
export function loadOrCreateSigningKeys(
  file: string,
  log: (message: string, details?: Record<string, unknown>) => void,
): SigningKeys {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    if ((statSync(file).mode & 0o077) !== 0)
      log('the OAuth signing key file is readable by other users; chmod 600 it', { file });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    text = createKeyFile(file);
  }
  const jwks = JSON.parse(text) as { keys: SigningJwk[] };
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0)
    throw new Error(`the OAuth signing key file ${JSON.stringify(file)} has no "keys"`);
  const publicKeys = new Map<string, KeyObject>();
  for (const jwk of jwks.keys) {
    if (
      jwk.kty !== 'EC' ||
      jwk.crv !== 'P-256' ||
      jwk.alg !== SIGNING_ALG ||
      typeof jwk.kid !== 'string' ||
      typeof jwk.d !== 'string'
    ) {
      throw new Error(
        `the OAuth signing key file ${JSON.stringify(file)} must hold EC P-256 private keys with "kid" and "alg": "${SIGNING_ALG}"`,
      );
    }
    const { d: _private, ...publicJwk } = jwk;
    publicKeys.set(jwk.kid, createPublicKey({ key: publicJwk, format: 'jwk' }));
  }
  return { jwks, publicKeys };
}

function createKeyFile(file: string): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk: SigningJwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(12).toString('base64url'),
    alg: SIGNING_ALG,
    use: 'sig',
  };
  const text = `${JSON.stringify({ keys: [jwk] }, null, 2)}\n`;
  mkdirSync(dirname(file), { recursive: true });
  try {
    // `wx`: of two processes starting at once, one writes and the other reads what it wrote.
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
    throw error;
  }
}
