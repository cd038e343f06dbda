/** Codes of `fx service backup` and `restore` (backup.ts), apart so the CLI's error table loads no SQLite. */
export const BackupErrorCode = {
  /** The service keeps its records in PostgreSQL or its files in a bucket: those have their own backups. */
  notEmbedded: 'backup_not_embedded',
  /** The folder to write a backup into, or to restore into, holds something already. */
  targetNotEmpty: 'backup_target_not_empty',
  /** The folder to restore from is not a backup (or one of another format). */
  sourceInvalid: 'backup_source_invalid',
} as const;
export type BackupErrorCode = (typeof BackupErrorCode)[keyof typeof BackupErrorCode];
