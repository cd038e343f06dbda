import { FxError } from '../../runtime/errors.js';
import type { ZipErrorCode, ZipProblem } from '../../wire/zip-limits.js';

/**
 * A project refused before upload, with the code the service would answer (`zip_entry_path_traversal`,
 * `zip_declared_size_exceeded`, `upload_too_large`, `asset_entry_missing`…) and the entry at fault when there is
 * one. Also `project_source_invalid` for a source `zipProject` cannot read.
 */
export class ZipError extends FxError<ZipErrorCode | ProjectSourceErrorCode> {
  override name = 'ZipError';
  /** The project path at fault, when one is. */
  readonly path: string | undefined;

  constructor(
    code: ZipErrorCode | ProjectSourceErrorCode,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.path = options.path;
  }

  static of(problem: ZipProblem): ZipError {
    return new ZipError(problem.code, problem.message, problem.path === undefined ? {} : { path: problem.path });
  }
}

/** Codes of the client's own, for sources and embeds (the service never sees those). */
export const ProjectSourceErrorCode = {
  /** `zipProject` was given something it cannot read as a project (or a file could not be read). */
  sourceInvalid: 'project_source_invalid',
  /** fflate failed (e.g. a Content-Security-Policy without `worker-src blob:` refused its workers). */
  zipFailed: 'project_zip_failed',
  /** An embed's file could not be fetched for `projectFiles()`. */
  fileUnavailable: 'project_file_unavailable',
  /** An embed's composition uses a file at `index.html` besides its entry, which goes there. */
  entryNameTaken: 'project_entry_name_taken',
  /** `projectFiles()` was called before the composition loaded. */
  notLoaded: 'project_not_loaded',
} as const;
export type ProjectSourceErrorCode = (typeof ProjectSourceErrorCode)[keyof typeof ProjectSourceErrorCode];
