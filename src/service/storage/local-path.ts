import { relative, resolve, sep } from 'node:path';
import { keyError } from './blob-storage.js';

/** Joins a key under a folder, refusing any key that would resolve outside it (defence in depth): `storage_key_invalid`. */
export function inside(folder: string, key: string): string {
  const path = resolve(folder, key);
  const rel = relative(folder, path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || resolve(folder, rel) !== path) {
    throw keyError(key);
  }
  return path;
}
