import type { PgPool } from '../db/postgres.js';
import { apiKeyHash, newApiKey, toApiKeyInfo, type ApiKeyStore, type KeyRow } from './api-keys.js';
import type { Principal } from './authenticator.js';

export class PostgresApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly pool: PgPool,
    private readonly now: () => number = Date.now,
  ) {}

  async create(accountId: string) {
    const { id, key, hash, displayPrefix } = newApiKey();
    await this.pool.query(
      'INSERT INTO api_keys (id, account_id, hash, display_prefix, created_at) VALUES ($1, $2, $3, $4, $5)',
      [id, accountId, hash, displayPrefix, this.now()],
    );
    return { id, key };
  }

  async revoke(id: string) {
    const result = await this.pool.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
      id,
      this.now(),
    ]);
    return result.rowCount === 1;
  }

  async list(accountId?: string) {
    const { rows } =
      accountId === undefined
        ? await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at')
        : await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at', [
            accountId,
          ]);
    return rows.map(toApiKeyInfo);
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const hash = apiKeyHash(token);
    if (hash === undefined) return undefined;
    // One statement: only an active key is found, and its use recorded.
    const { rows } = await this.pool.query<{ id: string; account_id: string }>(
      'UPDATE api_keys SET last_used_at = $2 WHERE hash = $1 AND revoked_at IS NULL RETURNING id, account_id',
      [hash, this.now()],
    );
    const row = rows[0];
    return row && { accountId: row.account_id, credentialId: row.id, kind: 'api_key' };
  }
}
