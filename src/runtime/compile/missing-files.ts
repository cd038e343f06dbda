/**
 * The one rule for files a composition names that its project does not have: each place it names one is an
 * `project_file_missing` error naming the file, the file that names it and where (`<img src>`, `<style> url()`,
 * `image variable "logo" default`…). The compile asks the project's server (preview and render, compile/files.ts);
 * lint, `fx cloud render --dry-run` and the service ask a list of the project's files ({@link missingFilesIn}).
 * Each place is named once and at most {@link MAX_MISSING_PLACES} are, then one issue counts the rest.
 * Files on other hosts are not the project's: the network rules decide about those.
 */
import { CompileIssueCode } from './codes.js';
import { fileReferences, STYLESHEET_LINKS, type FileReference } from './dependencies.js';
import { cssUrlTokens } from './css-scan.js';
import { decodePath } from '../data.js';
import { parseHtml } from '../html.js';
import { issue, type Issue } from '../issues.js';

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

/** Places named as missing, at most; the rest are counted in one more issue. */
export const MAX_MISSING_PLACES = 50;

/**
 * The places found so far: each once (by its key, before its issue is built: a hostile stylesheet may name one
 * missing file 150 000 times), at most {@link MAX_MISSING_PLACES}, then a count of the other distinct places.
 */
export class MissingPlaces {
  readonly #keys = new Set<string>();
  readonly #listed: Issue[] = [];
  #more = 0;

  /** Notes the place `key`; `build` makes its issue, called only for a place that is listed. */
  add(key: string, build: () => Issue): void {
    if (this.#keys.has(key)) return;
    this.#keys.add(key);
    if (this.#listed.length === MAX_MISSING_PLACES) this.#more++;
    else this.#listed.push(build());
  }

  /** The listed places' issues, and the count of the rest as one more. */
  issues(): Issue[] {
    if (this.#more === 0) return [...this.#listed];
    return [
      ...this.#listed,
      issue(CompileIssueCode.fileMissing, [], `and ${this.#more} more places name files the project does not have`),
    ];
  }
}

/** `path` inside the project, as a URL under the invented origin static checks resolve against. */
const PROJECT = 'https://project.fx.invalid/';

/** `a/b c.png` for the project URL of that file; undefined for a URL outside the project. */
export function projectPathOf(url: string, folder: string): string | undefined {
  if (!url.startsWith(folder)) return undefined;
  return decodePath(new URL(url).pathname.slice(new URL(folder).pathname.length));
}

/** What {@link missingFilesIn} may read besides asking `has`. */
export interface MissingFilesOptions {
  /**
   * The text of a project file, or undefined when it cannot be read: the stylesheets a composition links are
   * checked too (their `url()`s and `@font-face` sources, as the compile inlines them), and, with
   * `subCompositions`, the sub-composition files it names.
   */
  readonly read?: (path: string) => string | undefined;
  /**
   * How many levels of sub-compositions `read` gives are checked too (the compile's `limits.depth`): for one
   * entry's check. None by default (lint checks each file on its own).
   */
  readonly subCompositionDepth?: number;
  /** Shares one bound over several calls (every HTML file of an upload). */
  readonly places?: MissingPlaces;
}

/**
 * The files the composition file at `file` (a path in the project) names that `has` says the project lacks,
 * without a browser or a server: for lint, dry-runs and the service's submit check. `<template>` contents are
 * read too, and with `read` the stylesheets it links (and sub-compositions: {@link MissingFilesOptions});
 * URLs on other hosts, and root-relative ones above the project, are not checked.
 *
 * @example
 * missingFilesIn(html, 'index.html', (path) => paths.has(path));
 */
export function missingFilesIn(
  html: string,
  file: string,
  has: (path: string) => boolean,
  options: MissingFilesOptions = {},
): Issue[] {
  const places = options.places ?? new MissingPlaces();
  const seen = new Set<string>();
  const visit = (text: string, path: string, depth: number) => {
    seen.add(path);
    for (const { reference, file: named } of projectReferences(text, path)) {
      const present = has(named);
      if (!present) places.add(`${path}\n${reference.where}\n${named}`, () => missingFileIssue(reference, path, named));
      if (!present || !options.read || seen.has(named)) continue;
      if (reference.element.matches(STYLESHEET_LINKS) && !reference.sub) {
        seen.add(named);
        const css = options.read(named);
        if (css !== undefined) checkStylesheet(css, named, has, places);
      } else if (reference.sub && depth < (options.subCompositionDepth ?? 0)) {
        const sub = options.read(named);
        if (sub !== undefined) visit(sub, named, depth + 1);
      }
    }
  };
  visit(html, file, 0);
  return places.issues();
}

/** The places a stylesheet of the project (at `file`) names a project file `has` says it lacks. */
function checkStylesheet(css: string, file: string, has: (path: string) => boolean, places: MissingPlaces): void {
  const base = urlOf(file);
  const judged = new Map<string, string | undefined>();
  for (const { url } of cssUrlTokens(css)) {
    let named = judged.get(url);
    if (!judged.has(url)) judged.set(url, (named = cssProjectPath(url, base)));
    if (named === undefined || has(named)) continue;
    const path = named;
    places.add(`${file}\nurl()\n${path}`, () =>
      issue(
        CompileIssueCode.fileMissing,
        [file, 'url()', path],
        `url() in "${file}" names "${path}", which the project does not have`,
      ),
    );
  }
}

/** The project path a stylesheet's `url()` names, resolved against the stylesheet; undefined for other URLs. */
function cssProjectPath(value: string, base: string): string | undefined {
  const raw = value.trim();
  if (!raw || raw.startsWith('#') || /^(data|blob|javascript|about):/i.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  url.hash = '';
  url.search = '';
  const path = projectPathOf(url.href, PROJECT);
  return path === undefined || path === '' || path.endsWith('/') ? undefined : path;
}

const urlOf = (file: string) => new URL(file.split('/').map(encodeURIComponent).join('/'), PROJECT).href;

/** Each place the composition file at `file` names a project file, with that file's project path. */
function projectReferences(html: string, file: string): { reference: FileReference; file: string }[] {
  const doc = parseHtml(html);
  openTemplates(doc);
  const fileUrl = urlOf(file);
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  const base = href ? new URL(href, fileUrl).href : fileUrl;
  const found: { reference: FileReference; file: string }[] = [];
  // Each distinct URL is judged once: a hostile stylesheet may name one file 150 000 times.
  const judged = new Map<string, string | undefined>();
  for (const reference of fileReferences(doc, base)) {
    let path = judged.get(reference.url);
    if (!judged.has(reference.url)) {
      path = projectPathOf(reference.url, PROJECT);
      if (path === '' || path?.endsWith('/')) path = undefined;
      judged.set(reference.url, path);
    }
    if (path !== undefined) found.push({ reference, file: path });
  }
  return found;
}

/** Moves every `<template>`'s content into the document, so its references are found like the rest. */
function openTemplates(doc: Document): void {
  for (let template = doc.querySelector('template'); template; template = doc.querySelector('template'))
    template.replaceWith(template.content);
}
