/**
 * `zipProject` for a folder on disk (Node; the browser build never imports this module). Symbolic links are refused
 * rather than followed: a link could pull files from outside the project into an upload.
 */
import { openAsBlob } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ZipErrorCode } from '../../wire/zip-limits.js';
import { ProjectSourceErrorCode, ZipError } from './errors.js';
import { IGNORE_FILE, ignoreRules } from './ignore.js';
import type { ProjectFile } from './sources.js';
import { zipFiles, type ProjectZip, type ZipProjectOptions } from './zip-project.js';

/** Zips the project in `directory` (see `zipProject` for the ignore set, checks and options). */
export async function zipProjectDirectory(directory: string, options: ZipProjectOptions = {}): Promise<ProjectZip> {
  return zipFiles(await readProjectDirectory(directory, options.ignore ?? true), options);
}

/** The project files under `directory`, ignored ones left out (unless `ignore` is false), each read lazily. */
export async function readProjectDirectory(directory: string, ignore = true): Promise<ProjectFile[]> {
  const fxignore = ignore ? await readFile(join(directory, IGNORE_FILE), 'utf8').catch(() => undefined) : undefined;
  const rules = ignore ? ignoreRules(fxignore) : { ignores: () => false, prunes: () => false };
  const files: ProjectFile[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    let dirents;
    try {
      dirents = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      throw new ZipError(
        ProjectSourceErrorCode.sourceInvalid,
        `the folder ${JSON.stringify(folder)} could not be read: ${(error as Error).message}`,
        { cause: error },
      );
    }
    for (const dirent of dirents) {
      const path = `${prefix}${dirent.name}`;
      const full = join(folder, dirent.name);
      if (dirent.isDirectory()) {
        if (!rules.prunes(path)) await walk(full, `${path}/`);
      } else if (rules.ignores(path)) {
        continue;
      } else if (dirent.isFile()) {
        files.push({ path, content: await openAsBlob(full) });
      } else {
        const kind = dirent.isSymbolicLink() ? 'a symbolic link' : 'a special file';
        throw new ZipError(
          ZipErrorCode.zipEntrySymlink,
          `entry ${JSON.stringify(path)} must be a regular file or folder, got ${kind}`,
          { path },
        );
      }
    }
  };
  await walk(directory, '');
  return files;
}
