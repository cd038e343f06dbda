import { API_KEY_PREFIX, IdPrefix } from '../../wire/constants.js';
import { newId, newSecret, sha256Hex } from '../ids.js';
import type { Authenticator } from './authenticator.js';

export interface ApiKeyInfo {
  readonly id: string;
  readonly accountId: string;
  /** The first characters of the key, enough to recognise it in a list; the key itself is never stored. */
  readonly displayPrefix: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
}

/**
 * API keys: `fx_live_` + 256 random bits. Only the SHA-256 of a key is stored — enough for a high-entropy
 * secret (no salt or slow hash needed: there is nothing to brute-force) — so a leaked database leaks no key.
 * Implementations: `api-keys.sqlite.ts`, `api-keys.postgres.ts`.
 */
export interface ApiKeyStore extends Authenticator {
  /** Creates a key; the returned `key` is the only time it exists in clear. */
  create(accountId: string): Promise<{ id: string; key: string }>;
  /** Revokes a key; true when it existed and was active. */
  revoke(id: string): Promise<boolean>;
  list(accountId?: string): Promise<ApiKeyInfo[]>;
}

export interface KeyRow {
  id: string;
  account_id: string;
  display_prefix: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

const DISPLAY_LENGTH = API_KEY_PREFIX.length + 6;

/** A new key and what is stored of it. */
export function newApiKey() {
  const key = newSecret(API_KEY_PREFIX);
  return { id: newId(IdPrefix.apiKey), key, hash: sha256Hex(key), displayPrefix: key.slice(0, DISPLAY_LENGTH) };
}

/** The stored hash of a token that looks like one of our keys, else undefined (not ours: the next authenticator). */
export const apiKeyHash = (token: string) => (token.startsWith(API_KEY_PREFIX) ? sha256Hex(token) : undefined);

export const toApiKeyInfo = (row: KeyRow): ApiKeyInfo => ({
  id: row.id,
  accountId: row.account_id,
  displayPrefix: row.display_prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});
