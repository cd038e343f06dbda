import { createPublicKey, generateKeyPairSync, randomBytes, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { SettingStore } from '../db/settings.js';
import { SIGNING_ALG } from './constants.js';

/** A private signing JWK as stored and handed to oidc-provider. */
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
 * The database setting that holds the keys: every API process signs and verifies with the same ones, whatever data
 * folder it has (one key per folder made two API machines refuse each other's tokens).
 */
export const SIGNING_KEYS_SETTING = 'oauth_signing_keys';

/** What the setting holds: the keys, newest (signing) first, and when each older one stopped signing. */
interface StoredKeys {
  readonly keys: SigningJwk[];
  /** `kid` → epoch ms of the rotation that retired it. */
  readonly retiredAt?: Record<string, number>;
}

type Log = (message: string, details?: Record<string, unknown>) => void;

/**
 * The authorization server's signing keys (EC P-256), made once and kept in the database. A service that kept its
 * key in `legacyFile` (`dataDir/oauth-signing-keys.json`, before the keys moved to the database) has that key
 * taken over, so the tokens it signed stay valid.
 */
export async function loadSigningKeys(settings: SettingStore, legacyFile: string, log: Log): Promise<SigningKeys> {
  const text =
    (await settings.get(SIGNING_KEYS_SETTING)) ??
    (await settings.getOrCreate(SIGNING_KEYS_SETTING, () => legacyKeys(legacyFile, log) ?? newKeySet()));
  return signingKeysOf(parseStoredKeys(text));
}

/**
 * Puts a new signing key first; the keys it replaces keep verifying for `keepMs` after their rotation (the access
 * tokens they signed live that long), and go at a later rotation. Safe against another process rotating at once.
 * API processes sign with the first key they read at start: restart them after a rotation.
 */
export async function rotateSigningKeys(
  settings: SettingStore,
  keepMs: number,
  now = Date.now(),
): Promise<{ kid: string; kept: string[]; dropped: string[] }> {
  for (;;) {
    const text = await storedText(settings);
    const stored = parseStoredKeys(text);
    const retiredAt = { ...stored.retiredAt, [stored.keys[0]!.kid]: now };
    const kept = stored.keys.filter((key) => (retiredAt[key.kid] ?? now) + keepMs > now);
    const dropped = stored.keys.filter((key) => !kept.includes(key)).map((key) => key.kid);
    const key = newKey();
    const next: StoredKeys = {
      keys: [key, ...kept],
      retiredAt: Object.fromEntries(kept.map((old) => [old.kid, retiredAt[old.kid] ?? now])),
    };
    if (await settings.replace(SIGNING_KEYS_SETTING, text, JSON.stringify(next)))
      return { kid: key.kid, kept: kept.map((old) => old.kid), dropped };
  }
}

/** Every key `settings` holds now, for a verifier that met a `kid` it did not know (another process rotated). */
export async function currentPublicKeys(settings: SettingStore): Promise<ReadonlyMap<string, KeyObject>> {
  return signingKeysOf(parseStoredKeys(await storedText(settings))).publicKeys;
}

const storedText = async (settings: SettingStore) =>
  (await settings.get(SIGNING_KEYS_SETTING)) ?? (await settings.getOrCreate(SIGNING_KEYS_SETTING, newKeySet));

function legacyKeys(file: string, log: Log): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0)
    log('the OAuth signing key file is readable by other users; chmod 600 it', { file });
  parseStoredKeys(text, file);
  log('the OAuth signing keys were taken from the key file into the database; the file is no longer read', { file });
  return text;
}

function parseStoredKeys(text: string, where = `the "${SIGNING_KEYS_SETTING}" setting`): StoredKeys {
  const stored = JSON.parse(text) as StoredKeys;
  if (!Array.isArray(stored.keys) || stored.keys.length === 0) throw new Error(`${where} has no "keys"`);
  for (const jwk of stored.keys)
    if (
      jwk.kty !== 'EC' ||
      jwk.crv !== 'P-256' ||
      jwk.alg !== SIGNING_ALG ||
      typeof jwk.kid !== 'string' ||
      typeof jwk.d !== 'string'
    )
      throw new Error(`${where} must hold EC P-256 private keys with "kid" and "alg": "${SIGNING_ALG}"`);
  return stored;
}

function signingKeysOf(stored: StoredKeys): SigningKeys {
  const publicKeys = new Map<string, KeyObject>();
  for (const jwk of stored.keys) {
    const { d: _private, ...publicJwk } = jwk;
    publicKeys.set(jwk.kid, createPublicKey({ key: publicJwk, format: 'jwk' }));
  }
  return { jwks: { keys: stored.keys }, publicKeys };
}

function newKey(): SigningJwk {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(12).toString('base64url'),
    alg: SIGNING_ALG,
    use: 'sig',
  };
}

const newKeySet = () => JSON.stringify({ keys: [newKey()] } satisfies StoredKeys);
