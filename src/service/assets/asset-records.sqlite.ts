import type { Sqlite } from '../db/sqlite.js';
import { toAssetRecord, type AssetRecord, type AssetRecords, type AssetRow } from './asset-records.js';

export class SqliteAssetRecords implements AssetRecords {
  constructor(private readonly db: Sqlite) {}

  async create(asset: AssetRecord) {
    this.db
      .prepare(
        'INSERT INTO assets (id, account_id, composition, file_count, size_bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(asset.id, asset.accountId, asset.composition, asset.fileCount, asset.sizeBytes, asset.createdAt);
  }

  async get(accountId: string, id: string) {
    return toAssetRecord(
      this.db.prepare('SELECT * FROM assets WHERE id = ? AND account_id = ?').get(id, accountId) as
        AssetRow | undefined,
    );
  }
}
