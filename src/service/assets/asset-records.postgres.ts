import { transaction, type PgPool } from '../db/postgres.js';
import { toAssetRecord, type AssetRecord, type AssetRecords, type AssetRow } from './asset-records.js';

export class PostgresAssetRecords implements AssetRecords {
  constructor(private readonly pool: PgPool) {}

  /** In a transaction of its own, for its outcome when the connection is lost during the COMMIT. */
  async create(asset: AssetRecord) {
    await transaction(this.pool, (client) =>
      client.query(
        'INSERT INTO assets (id, account_id, composition, file_count, size_bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
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
}
