/**
 * The missing-file rule (src/runtime/missing-files.ts) over what `fx cloud render` would upload: the service has
 * only those files, so one the upload's ignore set leaves out is as missing as one that was never there.
 */
import '../runtime/dom-parser.node.js';
import { readBytes, sizeOf, type ProjectFile } from '../client/zip/sources.js';
import type { Issue } from '../runtime/issues.js';
import { missingFilesIn } from '../runtime/missing-files.js';

export interface MissingFile {
  readonly file: string;
  readonly issue: Issue;
}

/** Each place an HTML file of `files` names a project file that `files` do not hold. */
export async function missingFromUpload(files: readonly ProjectFile[]): Promise<MissingFile[]> {
  const paths = new Set(files.map((file) => file.path));
  const found: MissingFile[] = [];
  for (const file of files) {
    if (!/\.html?$/i.test(file.path)) continue;
    const html = new TextDecoder().decode(await readBytes(file.content, 0, sizeOf(file.content)));
    for (const issue of missingFilesIn(html, file.path, (path) => paths.has(path)))
      found.push({ file: file.path, issue });
  }
  return found;
}
