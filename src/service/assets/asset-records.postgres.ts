import { transaction, type PgPool } from '../db/postgres.js';
import { SQL_UNFINISHED } from '../renders/render-store.js';
import { StorageKey } from '../storage/keys.js';
import { ASSET_FILES_DUE, toAssetRecord, type AssetRecord, type AssetRecords, type AssetRow } from './asset-records.js';

export class PostgresAssetRecords implements AssetRecords {
  constructor(private readonly pool: PgPool) {}

  /** In a transaction of its own, for its outcome when the connection is lost during the COMMIT. */
  async create(asset: AssetRecord) {
    await transaction(this.pool, (client) =>
      client.query(
        `INSERT INTO assets (id, account_id, composition, file_count, size_bytes, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [asset.id, asset.accountId, asset.composition, asset.fileCount, asset.sizeBytes, asset.createdAt],
      ),
    );
  }

  async get(accountId: string, id: string) {
    const { rows } = await this.pool.query<AssetRow>('SELECT * FROM assets WHERE id = $1 AND account_id = $2', [
      id,
      accountId,
    ]);
    return toAssetRecord(rows[0]);
  }

  async markUsed(accountId: string, id: string, now: number) {
    // A row lock: a sweep's claim of the same asset waits for this one, then re-checks `last_used_at` (and this one,
    // waiting for a claim, re-checks `files_removed_at`).
    const { rowCount } = await this.pool.query(
      `UPDATE assets SET last_used_at = GREATEST(last_used_at, $1)
       WHERE id = $2 AND account_id = $3 AND files_removed_at IS NULL`,
      [now, id, accountId],
    );
    return rowCount === 1;
  }

  async filesDue(usedBefore: number, limit: number) {
    const { rows } = await this.pool.query<{ id: string; lastUsedAt: number }>(
      `SELECT id, last_used_at AS "lastUsedAt" FROM assets WHERE files_removed_at IS NULL AND last_used_at < $1
       ORDER BY last_used_at LIMIT $2`,
      [usedBefore, limit],
    );
    return rows;
  }

  async claimFileRemoval(id: string, now: number, usedBefore: number) {
    const { rowCount } = await this.pool.query(
      `UPDATE assets SET files_removed_at = $1 WHERE id = $2 AND ${ASSET_FILES_DUE('$3', '$4::text', SQL_UNFINISHED)}`,
      [now, id, usedBefore, StorageKey.asset('')],
    );
    return rowCount === 1;
  }

  async releaseFileRemoval(id: string) {
    await this.pool.query('UPDATE assets SET files_removed_at = NULL WHERE id = $1', [id]);
  }
}
