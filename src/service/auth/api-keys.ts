import { API_KEY_PREFIX, IdPrefix } from '../../wire/constants.js';
import type { Sqlite } from '../db/sqlite.js';
import { newId, newSecret, sha256Hex } from '../ids.js';
import type { Authenticator, Principal } from './authenticator.js';

export interface ApiKeyInfo {
  readonly id: string;
  readonly accountId: string;
  /** The first characters of the key, enough to recognise it in a list; the key itself is never stored. */
  readonly displayPrefix: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
}

interface KeyRow {
  id: string;
  account_id: string;
  display_prefix: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

const DISPLAY_LENGTH = API_KEY_PREFIX.length + 6;

/**
 * API keys: `fx_live_` + 256 random bits. Only the SHA-256 of a key is stored — enough for a high-entropy
 * secret (no salt or slow hash needed: there is nothing to brute-force) — so a leaked database leaks no key.
 */
export class ApiKeyStore implements Authenticator {
  constructor(
    private readonly db: Sqlite,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates a key; the returned `key` is the only time it exists in clear. */
  create(accountId: string): { id: string; key: string } {
    const key = newSecret(API_KEY_PREFIX);
    const id = newId(IdPrefix.apiKey);
    this.db
      .prepare('INSERT INTO api_keys (id, account_id, hash, display_prefix, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, accountId, sha256Hex(key), key.slice(0, DISPLAY_LENGTH), this.now());
    return { id, key };
  }

  /** Revokes a key; true when it existed and was active. */
  revoke(id: string): boolean {
    return (
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.now(), id)
        .changes === 1
    );
  }

  list(accountId?: string): ApiKeyInfo[] {
    const rows = (
      accountId === undefined
        ? this.db.prepare('SELECT * FROM api_keys ORDER BY created_at').all()
        : this.db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId)
    ) as KeyRow[];
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      displayPrefix: row.display_prefix,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    if (!token.startsWith(API_KEY_PREFIX)) return undefined;
    const row = this.db
      .prepare('SELECT id, account_id FROM api_keys WHERE hash = ? AND revoked_at IS NULL')
      .get(sha256Hex(token)) as { id: string; account_id: string } | undefined;
    if (!row) return undefined;
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(this.now(), row.id);
    return { accountId: row.account_id, credentialId: row.id, kind: 'api_key' };
  }
}
