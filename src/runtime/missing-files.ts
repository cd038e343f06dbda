/**
 * The one rule for files a composition names that its project does not have: each place it names one is an
 * `project_file_missing` error naming the file, the file that names it and where (`<img src>`, `<style> url()`,
 * `image variable "logo" default`…). The compile asks the project's server (preview and render, compile-files.ts);
 * lint, `fx cloud render --dry-run` and the service ask a list of the project's files ({@link missingFilesIn}).
 * Files on other hosts are not the project's: the network rules decide about those.
 */
import { CompileIssueCode } from './compile-codes.js';
import { fileReferences, type FileReference } from './compile-dependencies.js';
import { decodePath } from './data.js';
import { parseHtml } from './html.js';
import { issue, type Issue } from './issues.js';

/** Answers that say a file is not there; other failures (5xx, CORS, a dropped connection) are the network's. */
export const isMissingStatus = (status: number): boolean => status === 404 || status === 410;

/** The issue for one place that names a missing file; `referrer` and `file` as the user knows them (project paths). */
export function missingFileIssue(reference: FileReference, referrer: string, file: string): Issue {
  return issue(
    CompileIssueCode.fileMissing,
    [referrer, reference.where, file],
    `${reference.where} in "${referrer}" names "${file}", which the project does not have`,
  );
}

/**
 * Issues that refuse a render: a missing file (unless `allowMissingFiles`: then it renders as the preview shows
 * it, broken image and all) and an image neither the preview nor the render can load as named.
 */
export function renderBlockers(issues: readonly Issue[], allowMissingFiles = false): Issue[] {
  return issues.filter(
    (found) =>
      found.code === CompileIssueCode.imageTooLarge ||
      (found.code === CompileIssueCode.fileMissing && !allowMissingFiles),
  );
}

/** `path` inside the project, as a URL under the invented origin static checks resolve against. */
const PROJECT = 'https://project.fx.invalid/';

/** `a/b c.png` for the project URL of that file; undefined for a URL outside the project. */
export function projectPathOf(url: string, folder: string): string | undefined {
  if (!url.startsWith(folder)) return undefined;
  return decodePath(new URL(url).pathname.slice(new URL(folder).pathname.length));
}

/**
 * The files the composition file at `file` (a path in the project) names that `has` says the project lacks,
 * without a browser or a server: for lint, dry-runs and the service's submit check. Sub-composition files and
 * `<template>` contents are read too; URLs on other hosts, and root-relative ones above the project, are not
 * checked.
 *
 * @example
 * missingFilesIn(html, 'index.html', (path) => paths.has(path));
 */
export function missingFilesIn(html: string, file: string, has: (path: string) => boolean): Issue[] {
  const doc = parseHtml(html);
  openTemplates(doc);
  const fileUrl = new URL(file.split('/').map(encodeURIComponent).join('/'), PROJECT).href;
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  const base = href ? new URL(href, fileUrl).href : fileUrl;
  const issues: Issue[] = [];
  for (const reference of fileReferences(doc, base)) {
    const path = projectPathOf(reference.url, PROJECT);
    if (path === undefined || path === '' || path.endsWith('/') || has(path)) continue;
    issues.push(missingFileIssue(reference, file, path));
  }
  return issues;
}

/** Moves every `<template>`'s content into the document, so its references are found like the rest. */
function openTemplates(doc: Document): void {
  for (let template = doc.querySelector('template'); template; template = doc.querySelector('template'))
    template.replaceWith(template.content);
}
