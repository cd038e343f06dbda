/**
 * The missing-file rule (src/runtime/compile/missing-files.ts) over what `fx cloud render` would upload: the service has
 * only those files, so one the upload's ignore set leaves out is as missing as one that was never there. The
 * stylesheets the compositions link are read too (`.css` files).
 */
import '../../runtime/dom-parser.node.js';
import { readBytes, sizeOf, type ProjectFile } from '../../client/zip/sources.js';
import type { Issue } from '../../runtime/issues.js';
import { missingFilesIn } from '../../runtime/compile/missing-files.js';

export interface MissingFile {
  readonly file: string;
  readonly issue: Issue;
}

/** Each place an HTML file of `files` (or a stylesheet one links) names a project file that `files` do not hold. */
export async function missingFromUpload(files: readonly ProjectFile[]): Promise<MissingFile[]> {
  const paths = new Set(files.map((file) => file.path));
  const text = async (file: ProjectFile) =>
    new TextDecoder().decode(await readBytes(file.content, 0, sizeOf(file.content)));
  const stylesheets = new Map<string, string>();
  for (const file of files) if (/\.css$/i.test(file.path)) stylesheets.set(file.path, await text(file));
  const found: MissingFile[] = [];
  for (const file of files) {
    if (!/\.html?$/i.test(file.path)) continue;
    const issues = missingFilesIn(await text(file), file.path, (path) => paths.has(path), {
      read: (path) => stylesheets.get(path),
    });
    for (const issue of issues) found.push({ file: file.path, issue });
  }
  return found;
}
