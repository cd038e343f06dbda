import type { Sqlite } from '../db/sqlite.js';
import { SQL_UNFINISHED } from '../renders/render-store.js';
import { StorageKey } from '../storage/keys.js';
import { ASSET_FILES_DUE, toAssetRecord, type AssetRecord, type AssetRecords, type AssetRow } from './asset-records.js';

export class SqliteAssetRecords implements AssetRecords {
  constructor(private readonly db: Sqlite) {}

  async create(asset: AssetRecord) {
    this.db
      .prepare(
        `INSERT INTO assets (id, account_id, composition, file_count, size_bytes, created_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        asset.id,
        asset.accountId,
        asset.composition,
        asset.fileCount,
        asset.sizeBytes,
        asset.createdAt,
        asset.createdAt,
      );
  }

  async get(accountId: string, id: string) {
    return toAssetRecord(
      this.db.prepare('SELECT * FROM assets WHERE id = ? AND account_id = ?').get(id, accountId) as
        AssetRow | undefined,
    );
  }

  async markUsed(accountId: string, id: string, now: number) {
    return (
      this.db
        .prepare(
          'UPDATE assets SET last_used_at = MAX(last_used_at, ?) WHERE id = ? AND account_id = ? AND files_removed_at IS NULL',
        )
        .run(now, id, accountId).changes === 1
    );
  }

  async filesDue(usedBefore: number, limit: number) {
    return this.db
      .prepare(
        `SELECT id, last_used_at AS lastUsedAt FROM assets WHERE files_removed_at IS NULL AND last_used_at < ?
         ORDER BY last_used_at LIMIT ?`,
      )
      .all(usedBefore, limit) as { id: string; lastUsedAt: number }[];
  }

  async claimFileRemoval(id: string, now: number, usedBefore: number) {
    return (
      this.db
        .prepare(`UPDATE assets SET files_removed_at = ? WHERE id = ? AND ${ASSET_FILES_DUE('?', '?', SQL_UNFINISHED)}`)
        .run(now, id, usedBefore, StorageKey.asset('')).changes === 1
    );
  }

  async releaseFileRemoval(id: string) {
    this.db.prepare('UPDATE assets SET files_removed_at = NULL WHERE id = ?').run(id);
  }
}
