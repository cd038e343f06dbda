/** Project zipping for the `/v3` service: `zipProject` (browser sources) and the embed's `projectFiles()`. */
export { zipProject, type ProjectZip, type ZipProgress, type ZipProjectOptions } from './zip-project.js';
export type { ProjectEntry, ProjectSource } from './sources.js';
export type { WrittenEntry } from './writer.js';
export { ZipError, ProjectSourceErrorCode } from './errors.js';
export { IGNORE_FILE } from './ignore.js';
export { ZIP_LIMITS, ZipErrorCode, type ZipLimits } from '../../wire/zip-limits.js';
