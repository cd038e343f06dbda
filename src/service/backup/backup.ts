/**
 * Backup and restore of an embedded service (SQLite and files on the local disk): the database copied with SQLite's
 * online backup (consistent while the service writes), then the stored files; keys and secrets are rows of the
 * database (API key hashes, webhook and URL-signing secrets, OAuth signing and cookie keys). A backup is a folder:
 * `service.db`, `blobs/`, `backup.json`. PostgreSQL and a bucket are backed up with their own tools (docs/deploy.md).
 */
import Database from 'better-sqlite3';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FxError } from '../../runtime/errors.js';
import { DATABASE_FILE } from '../db/stores.sqlite.js';
import { SIGNING_KEYS_FILE } from '../oauth/constants.js';
import { BackupErrorCode } from './errors.js';

const MANIFEST = 'backup.json';
const BLOBS = 'blobs';
/** Half-written files of the local storage: never part of a backup. */
const TEMPORARY = '.tmp';
const FORMAT = 1;
/**
 * Refuses a service whose records or files live elsewhere (`databaseUrl`, an S3 bucket): back those up with the
 * database's and the bucket's own tools (docs/deploy.md).
 */
export function refuseUnlessEmbedded(where: { databaseUrl?: string | undefined; bucket?: string | undefined }): void {
  const elsewhere = [where.databaseUrl && 'its records in PostgreSQL', where.bucket && 'its files in a bucket'].filter(
    Boolean,
  );
  if (elsewhere.length > 0)
    throw new FxError(
      BackupErrorCode.notEmbedded,
      `this service keeps ${elsewhere.join(' and ')}: back those up with their own tools (docs/deploy.md, "Backup"); fx service backup copies an embedded service's data folder`,
    );
}

/** Pages copied per step of the online backup; the service's writes go on between steps. */
const PAGES_PER_STEP = 256;

export interface BackupManifest {
  readonly format: typeof FORMAT;
  readonly createdAt: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Writes a backup of the embedded service in `dataDir` to `target` (created; refused unless missing or empty).
 * The database comes first: the files copied after it are a superset of those its records name (stored files are
 * never changed, only added, and removed with their render). Written into `target.partial` and renamed, so a
 * failed backup leaves no folder that looks whole.
 */
export async function backupService(dataDir: string, target: string): Promise<BackupManifest> {
  await refuseUnlessEmpty(target);
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    try {
      await db.backup(join(partial, DATABASE_FILE), { progress: () => PAGES_PER_STEP });
    } finally {
      db.close();
    }
    await copyIfPresent(join(dataDir, BLOBS), join(partial, BLOBS));
    await copyIfPresent(join(dataDir, SIGNING_KEYS_FILE), join(partial, SIGNING_KEYS_FILE));
    const { files, bytes } = await sizeOf(join(partial, BLOBS));
    const manifest: BackupManifest = { format: FORMAT, createdAt: new Date().toISOString(), files, bytes };
    await writeFile(join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await rm(target, { recursive: true, force: true });
    await rename(partial, target);
    return manifest;
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Restores the backup in `source` into `dataDir` (refused unless missing or empty); the database is checked whole
 * (`PRAGMA integrity_check`) before anything is copied. Start the service on `dataDir` afterwards.
 */
export async function restoreService(source: string, dataDir: string): Promise<BackupManifest> {
  const manifest = await readManifest(source);
  const check = new Database(join(source, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const [result] = check.pragma('integrity_check') as { integrity_check: string }[];
    if (result?.integrity_check !== 'ok')
      throw new FxError(BackupErrorCode.sourceInvalid, `the backup's database is damaged: ${result?.integrity_check}`);
  } finally {
    check.close();
  }
  await refuseUnlessEmpty(dataDir);
  await mkdir(dataDir, { recursive: true });
  await cp(join(source, DATABASE_FILE), join(dataDir, DATABASE_FILE));
  await copyIfPresent(join(source, BLOBS), join(dataDir, BLOBS));
  await copyIfPresent(join(source, SIGNING_KEYS_FILE), join(dataDir, SIGNING_KEYS_FILE));
  return manifest;
}

async function readManifest(source: string): Promise<BackupManifest> {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(await readFile(join(source, MANIFEST), 'utf8')) as Partial<BackupManifest>;
    await stat(join(source, DATABASE_FILE));
  } catch (error) {
    throw new FxError(
      BackupErrorCode.sourceInvalid,
      `${JSON.stringify(source)} is not a backup of the service (${(error as Error).message})`,
    );
  }
  if (manifest.format !== FORMAT)
    throw new FxError(
      BackupErrorCode.sourceInvalid,
      `the backup is of format ${String(manifest.format)}; this service reads ${FORMAT}`,
    );
  return manifest as BackupManifest;
}

async function refuseUnlessEmpty(folder: string): Promise<void> {
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0)
    throw new FxError(
      BackupErrorCode.targetNotEmpty,
      `${JSON.stringify(folder)} is not empty; name a new or empty folder`,
    );
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  try {
    await cp(from, to, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes(TEMPORARY) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function sizeOf(folder: string): Promise<{ files: number; bytes: number }> {
  let [files, bytes] = [0, 0];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries)
    if (entry.isFile()) {
      files++;
      bytes += (await stat(join(entry.parentPath, entry.name))).size;
    }
  return { files, bytes };
}
