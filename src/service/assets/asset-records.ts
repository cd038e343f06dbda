import type { Sqlite } from '../db/sqlite.js';

export interface AssetRecord {
  readonly id: string;
  readonly accountId: string;
  /** The entry composition checked at upload. */
  readonly composition: string;
  readonly fileCount: number;
  readonly sizeBytes: number;
  readonly createdAt: number;
}

/** Asset records; the files themselves live in {@link BlobStorage} under `assets/<id>/`. */
export interface AssetRecords {
  create(asset: AssetRecord): Promise<void>;
  get(accountId: string, id: string): Promise<AssetRecord | undefined>;
}

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
    const row = this.db.prepare('SELECT * FROM assets WHERE id = ? AND account_id = ?').get(id, accountId) as
      | {
          id: string;
          account_id: string;
          composition: string;
          file_count: number;
          size_bytes: number;
          created_at: number;
        }
      | undefined;
    return (
      row && {
        id: row.id,
        accountId: row.account_id,
        composition: row.composition,
        fileCount: row.file_count,
        sizeBytes: row.size_bytes,
        createdAt: row.created_at,
      }
    );
  }
}
