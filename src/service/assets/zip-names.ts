import { ErrorCode } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';

const MAX_PATH_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
// C0 controls, DEL and C1 controls: never part of a file name worth keeping.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DRIVE = /^[A-Za-z]:/;
const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/**
 * Refuses a path that could leave the extraction folder or mean different files on different systems.
 * Returns the path without its trailing `/` (folder entries). `what` names the path in messages.
 */
export function checkRelativePath(path: string, what: string): string {
  const fail = (code: ErrorCode, reason: string) => new ServiceError(code, `${what} ${JSON.stringify(path)} ${reason}`);
  if (path === '' || path === '/') throw fail(ErrorCode.zipEntryNameInvalid, 'must be a non-empty relative path');
  if (CONTROL.test(path)) throw fail(ErrorCode.zipEntryNameControlCharacter, 'must not contain control characters');
  if (path.startsWith('/') || path.startsWith('\\') || DRIVE.test(path)) {
    throw fail(ErrorCode.zipEntryPathAbsolute, 'must be relative, not absolute');
  }
  if (path.includes('\\')) throw fail(ErrorCode.zipEntryNameBackslash, 'must use "/" as separator, not "\\"');
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/');
  if (segments.includes('..')) throw fail(ErrorCode.zipEntryPathTraversal, 'must not contain a ".." segment');
  if (segments.some((segment) => segment === '' || segment === '.')) {
    throw fail(ErrorCode.zipEntryNameInvalid, 'must not contain empty or "." segments');
  }
  if (byteLength(trimmed) > MAX_PATH_BYTES || segments.some((segment) => byteLength(segment) > MAX_SEGMENT_BYTES)) {
    throw fail(ErrorCode.zipEntryNameInvalid, `must be at most ${MAX_PATH_BYTES} bytes with segments of at most ${MAX_SEGMENT_BYTES}`);
  }
  return trimmed;
}

/** The form two names take when a case-insensitive or normalising file system would confuse them. */
const folded = (path: string) => path.normalize('NFC').toLowerCase();

/**
 * Refuses names that would overwrite each other on extraction: exact duplicates, a name used both as a file and
 * as a folder, and names equal after case folding and Unicode normalisation (macOS, Windows).
 */
export function checkNoCollisions(entries: readonly { path: string; isDirectory: boolean }[]): void {
  const kinds = new Map<string, 'file' | 'folder'>();
  const byFolded = new Map<string, string>();
  const claim = (path: string, kind: 'file' | 'folder') => {
    const existing = kinds.get(path);
    if (existing !== undefined) {
      if (existing !== kind) throw new ServiceError(ErrorCode.zipEntryDuplicate, `entry ${JSON.stringify(path)} is both a file and a folder`);
      return;
    }
    const key = folded(path);
    const other = byFolded.get(key);
    if (other !== undefined) {
      throw new ServiceError(ErrorCode.zipEntryCaseDuplicate, `entries ${JSON.stringify(other)} and ${JSON.stringify(path)} differ only in case or normalisation`);
    }
    kinds.set(path, kind);
    byFolded.set(key, path);
  };
  const seenExplicit = new Set<string>();
  for (const { path, isDirectory } of entries) {
    if (seenExplicit.has(path)) throw new ServiceError(ErrorCode.zipEntryDuplicate, `entry ${JSON.stringify(path)} appears more than once`);
    seenExplicit.add(path);
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) claim(segments.slice(0, depth).join('/'), 'folder');
    claim(path, isDirectory ? 'folder' : 'file');
  }
}
