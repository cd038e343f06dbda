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
  /** Its upload is its first use (`last_used_at`). */
  create(asset: AssetRecord): Promise<void>;
  get(accountId: string, id: string): Promise<AssetRecord | undefined>;
  /**
   * A submit names the asset: its last use becomes `now`, in one conditional UPDATE of its row; false when retention
   * has removed its files, and the submit is refused. A sweep taking the removal at the same moment writes the same
   * row, so one of the two sees the other's change: the asset is either used or removed, never both.
   */
  markUsed(accountId: string, id: string, now: number): Promise<boolean>;
  /** Retention: assets whose files are kept and that were last used before `usedBefore`, oldest use first. */
  filesDue(usedBefore: number, limit: number): Promise<{ id: string; lastUsedAt: number }[]>;
  /**
   * Takes the removal of a due asset's files: true for the one caller that removes them. Never while a live render
   * that renders it is queued or rendering.
   */
  claimFileRemoval(id: string, now: number, usedBefore: number): Promise<boolean>;
  /** Gives a taken removal back (the storage failed): the next sweep tries again. */
  releaseFileRemoval(id: string): Promise<void>;
}

/**
 * The condition of `claimFileRemoval` on both databases, given the placeholders of the time and of the assets' key
 * prefix (`StorageKey.asset('')`): a render's `project_key` names the asset it renders.
 */
export const ASSET_FILES_DUE = (usedBefore: string, assetPrefix: string, unfinished: string) =>
  `files_removed_at IS NULL AND last_used_at < ${usedBefore} AND NOT EXISTS (
     SELECT 1 FROM renders r WHERE r.project_key = ${assetPrefix} || assets.id AND r.deleted_at IS NULL
       AND r.status IN (${unfinished}))`;

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
