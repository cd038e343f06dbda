export interface AssetRecord {
  readonly id: string;
  readonly accountId: string;
  /** The entry composition checked at upload. */
  readonly composition: string;
  readonly fileCount: number;
  readonly sizeBytes: number;
  readonly createdAt: number;
}

/** Asset records (implementations: `asset-records.sqlite.ts`, `.postgres.ts`); the files themselves live in {@link BlobStorage} under `assets/<id>/`. */
export interface AssetRecords {
  create(asset: AssetRecord): Promise<void>;
  get(accountId: string, id: string): Promise<AssetRecord | undefined>;
}

export interface AssetRow {
  id: string;
  account_id: string;
  composition: string;
  file_count: number;
  size_bytes: number;
  created_at: number;
}

export const toAssetRecord = (row: AssetRow | undefined): AssetRecord | undefined =>
  row && {
    id: row.id,
    accountId: row.account_id,
    composition: row.composition,
    fileCount: row.file_count,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
  };
