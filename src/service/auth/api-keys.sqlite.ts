import type { Sqlite } from '../db/sqlite.js';
import { apiKeyHash, newApiKey, toApiKeyInfo, type ApiKeyStore, type KeyRow } from './api-keys.js';
import type { Principal } from './authenticator.js';

export class SqliteApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly db: Sqlite,
    private readonly now: () => number = Date.now,
  ) {}

  async create(accountId: string) {
    const { id, key, hash, displayPrefix } = newApiKey();
    this.db
      .prepare('INSERT INTO api_keys (id, account_id, hash, display_prefix, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, accountId, hash, displayPrefix, this.now());
    return { id, key };
  }

  async revoke(id: string) {
    return (
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.now(), id)
        .changes === 1
    );
  }

  async list(accountId?: string) {
    const rows = (
      accountId === undefined
        ? this.db.prepare('SELECT * FROM api_keys ORDER BY created_at').all()
        : this.db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId)
    ) as KeyRow[];
    return rows.map(toApiKeyInfo);
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const hash = apiKeyHash(token);
    if (hash === undefined) return undefined;
    const row = this.db
      .prepare('SELECT id, account_id FROM api_keys WHERE hash = ? AND revoked_at IS NULL')
      .get(hash) as { id: string; account_id: string } | undefined;
    if (!row) return undefined;
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(this.now(), row.id);
    return { accountId: row.account_id, credentialId: row.id, kind: 'api_key' };
  }
}
