/**
 * What the `/v3` service accepts as a zipped project, said once for the service (which enforces it on upload) and
 * the client (which checks it before uploading): the limits, the error codes and the name rules. No I/O.
 */

const MiB = 1024 * 1024;

/** The service's default limits on an uploaded project; a service may be configured with others. */
export const ZIP_LIMITS = {
  /** Zip upload body. Above → 413 `upload_too_large`. */
  uploadBytes: 100 * MiB,
  /** Entries in the archive. Above → `zip_entry_count_exceeded`. */
  zipEntries: 10_000,
  /** Sum of the declared uncompressed sizes. Above → `zip_declared_size_exceeded`. */
  zipUncompressedBytes: 512 * MiB,
  /** Largest allowed uncompressed/compressed ratio of an entry, and of all entries together... */
  zipRatio: 100,
  /** ...checked only for an entry, or a whole archive, unpacking to at least this much (small files of zeros compress absurdly well). */
  zipRatioMinBytes: 1 * MiB,
} as const;
export type ZipLimits = { readonly [Name in keyof typeof ZIP_LIMITS]: number };

/** Longest entry name, and longest segment of one, in UTF-8 bytes. */
export const ZIP_NAME_LIMITS = { pathBytes: 1024, segmentBytes: 255 } as const;

/** Codes of a refused project, the same whether the service or the client refuses it. */
export const ZipErrorCode = {
  uploadTooLarge: 'upload_too_large',
  assetEntryMissing: 'asset_entry_missing',
  zipInvalid: 'zip_invalid',
  zipUnsupported: 'zip_unsupported',
  zipEntryNameInvalid: 'zip_entry_name_invalid',
  zipEntryNameControlCharacter: 'zip_entry_name_control_character',
  zipEntryNameBackslash: 'zip_entry_name_backslash',
  zipEntryPathAbsolute: 'zip_entry_path_absolute',
  zipEntryPathTraversal: 'zip_entry_path_traversal',
  zipEntryDuplicate: 'zip_entry_duplicate',
  zipEntryCaseDuplicate: 'zip_entry_case_duplicate',
  zipEntrySymlink: 'zip_entry_symlink',
  zipEntryCountExceeded: 'zip_entry_count_exceeded',
  zipDeclaredSizeExceeded: 'zip_declared_size_exceeded',
  zipInflatedSizeExceeded: 'zip_inflated_size_exceeded',
  zipCompressionRatioExceeded: 'zip_compression_ratio_exceeded',
} as const;
export type ZipErrorCode = (typeof ZipErrorCode)[keyof typeof ZipErrorCode];

/** Why a project is refused: the code, the message, and the entry at fault when there is one. */
export interface ZipProblem {
  readonly code: ZipErrorCode;
  readonly message: string;
  readonly path?: string;
}

// C0 controls, DEL and C1 controls: never part of a file name worth keeping.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DRIVE = /^[A-Za-z]:/;
const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/**
 * The problem with a path that could leave the extraction folder or mean different files on different systems,
 * or `undefined` when it is fine. `what` names the path in messages (`entry name`, `"composition"`).
 */
export function relativePathProblem(path: string, what: string): ZipProblem | undefined {
  const fail = (code: ZipErrorCode, reason: string): ZipProblem => ({
    code,
    message: `${what} ${JSON.stringify(path)} ${reason}`,
    path,
  });
  if (path === '' || path === '/') return fail(ZipErrorCode.zipEntryNameInvalid, 'must be a non-empty relative path');
  if (CONTROL.test(path)) return fail(ZipErrorCode.zipEntryNameControlCharacter, 'must not contain control characters');
  if (path.startsWith('/') || path.startsWith('\\') || DRIVE.test(path))
    return fail(ZipErrorCode.zipEntryPathAbsolute, 'must be relative, not absolute');
  if (path.includes('\\')) return fail(ZipErrorCode.zipEntryNameBackslash, 'must use "/" as separator, not "\\"');
  const trimmed = withoutTrailingSlash(path);
  const segments = trimmed.split('/');
  if (segments.includes('..')) return fail(ZipErrorCode.zipEntryPathTraversal, 'must not contain a ".." segment');
  if (segments.some((segment) => segment === '' || segment === '.'))
    return fail(ZipErrorCode.zipEntryNameInvalid, 'must not contain empty or "." segments');
  const { pathBytes, segmentBytes } = ZIP_NAME_LIMITS;
  if (byteLength(trimmed) > pathBytes || segments.some((segment) => byteLength(segment) > segmentBytes)) {
    return fail(
      ZipErrorCode.zipEntryNameInvalid,
      `must be at most ${pathBytes} bytes with segments of at most ${segmentBytes}`,
    );
  }
  return undefined;
}

/** `path` without the trailing `/` of a folder entry. */
export const withoutTrailingSlash = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : path);

/** The form two names take when a case-insensitive or normalising file system would confuse them. */
const folded = (path: string) => path.normalize('NFC').toLowerCase();

/**
 * The first pair of names that would overwrite each other on extraction: exact duplicates, a name used both as a
 * file and as a folder, and names equal after case folding and Unicode normalisation (macOS, Windows).
 */
export function collisionProblem(
  entries: Iterable<{ readonly path: string; readonly isDirectory: boolean }>,
): ZipProblem | undefined {
  const kinds = new Map<string, 'file' | 'folder'>();
  const byFolded = new Map<string, string>();
  const claim = (path: string, kind: 'file' | 'folder'): ZipProblem | undefined => {
    const existing = kinds.get(path);
    if (existing !== undefined) {
      return existing === kind
        ? undefined
        : {
            code: ZipErrorCode.zipEntryDuplicate,
            message: `entry ${JSON.stringify(path)} is both a file and a folder`,
            path,
          };
    }
    const other = byFolded.get(folded(path));
    if (other !== undefined) {
      return {
        code: ZipErrorCode.zipEntryCaseDuplicate,
        message: `entries ${JSON.stringify(other)} and ${JSON.stringify(path)} differ only in case or normalisation`,
        path,
      };
    }
    kinds.set(path, kind);
    byFolded.set(folded(path), path);
    return undefined;
  };
  const seenExplicit = new Set<string>();
  for (const { path, isDirectory } of entries) {
    if (seenExplicit.has(path))
      return {
        code: ZipErrorCode.zipEntryDuplicate,
        message: `entry ${JSON.stringify(path)} appears more than once`,
        path,
      };
    seenExplicit.add(path);
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const problem = claim(segments.slice(0, depth).join('/'), 'folder');
      if (problem) return problem;
    }
    const problem = claim(path, isDirectory ? 'folder' : 'file');
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The problem with `uncompressed` bytes stored in `compressed` ones, past `zipRatioMinBytes` (small files of zeros
 * compress absurdly well). `what` names the entry or the archive in messages.
 */
export function ratioProblem(
  what: string,
  uncompressed: number,
  compressed: number,
  limits: Pick<ZipLimits, 'zipRatio' | 'zipRatioMinBytes'>,
): ZipProblem | undefined {
  if (uncompressed < limits.zipRatioMinBytes) return undefined;
  const ratio = uncompressed / Math.max(compressed, 1);
  if (ratio <= limits.zipRatio) return undefined;
  return {
    code: ZipErrorCode.zipCompressionRatioExceeded,
    message: `${what} must compress at most ${limits.zipRatio}:1, got ${Math.round(ratio)}:1`,
  };
}
