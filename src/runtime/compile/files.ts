/**
 * The compile's half of missing-files.ts: asks the project's server about every project file the compiled
 * document names and reports each place that names one it does not have. The preview and the renderer run this
 * same compile, so they report the same files. A project file is one on the entry's own origin that the
 * composition may read (its folder tree, `allowCompositionReadsUnder`); others are the network rules' business.
 */
import { Attr } from '../constants.js';
import { CompileIssueCode } from './codes.js';
import { fileReferences, type FileReference } from './dependencies.js';
import type { Context } from './context.js';
import { parseUrl } from '../data.js';
import { isFxError } from '../errors.js';
import { FrameAttr } from '../frame-config.js';
import { isMissingStatus, missingFileIssue, MissingPlaces, projectPathOf } from './missing-files.js';

/** Pushes a `project_file_missing` error to `ctx.issues` for each place `doc` names a missing project file. */
export async function checkProjectFiles(ctx: Context, doc: Document, base: string, entryUrl: string): Promise<void> {
  const entry = parseUrl(entryUrl);
  // An entry with no folder (a blob: or data: URL) names no project file: nothing to ask about.
  if (entry?.protocol !== 'http:' && entry?.protocol !== 'https:') return;
  const folder = new URL('./', entry).href;
  // Each distinct URL is judged (and asked about) once: a hostile stylesheet may name one file 150 000 times.
  const isProjectFile = new Map<string, boolean>();
  const projectFile = (href: string) => {
    let known = isProjectFile.get(href);
    if (known === undefined) {
      const url = new URL(href);
      known = url.protocol === entry.protocol && url.host === entry.host && ctx.scope.allows(url);
      isProjectFile.set(href, known);
    }
    return known;
  };
  const references = fileReferences(doc, base).filter((reference) => !reference.sub && projectFile(reference.url));
  const answers = new Map<string, Promise<boolean>>();
  for (const { url } of references) {
    // Past the file limit nothing more is asked: the count of requests a composition causes stays bounded.
    if (!answers.has(url) && answers.size < ctx.limits.files) answers.set(url, isMissing(ctx, url));
  }
  const missingUrls = new Set<string>();
  await Promise.all([...answers].map(async ([url, answer]) => (await answer) && missingUrls.add(url)));
  const missing = references.map((reference) => missingUrls.has(reference.url));
  const shown = (url: string) => projectPathOf(url, folder) ?? url;
  // Each place once, and a bounded list: a hostile stylesheet may name one missing file 150 000 times.
  const places = new MissingPlaces();
  const referrers = new Map<Element, string>();
  references.forEach((reference, index) => {
    if (!missing[index]) return;
    let referrer = referrers.get(reference.element);
    if (referrer === undefined) referrers.set(reference.element, (referrer = referrerOf(reference, base, entry.href)));
    const from = referrer;
    places.add(`${from}\n${reference.where}\n${reference.url}`, () =>
      missingFileIssue(reference, shown(from), shown(reference.url)),
    );
  });
  ctx.issues.push(...places.issues());
}

/** The file that wrote `reference`: the sub-composition whose instance holds it, else the entry. */
function referrerOf(reference: FileReference, base: string, entry: string): string {
  const host = reference.element.closest(`[${FrameAttr.instance}]`);
  const source = host?.getAttribute(Attr.compositionSrc);
  return (source && parseUrl(source, base)?.href) || entry;
}

/**
 * Whether the server has no file at `url`: from this compile's own read of it when there was one, else from a
 * `HEAD` request (without cookies, like the compile's reads). A failure that is not a 404 or 410 is no answer.
 */
async function isMissing(ctx: Context, url: string): Promise<boolean> {
  const reads = [...ctx.files].filter(([key]) => key.slice(key.indexOf(' ') + 1) === url).map(([, read]) => read);
  if (reads.length > 0) {
    const results = await Promise.allSettled(reads);
    if (results.some((result) => result.status === 'fulfilled')) return false;
    if (
      results.some((result) => result.status === 'rejected' && isFxError(result.reason, CompileIssueCode.fileMissing))
    )
      return true;
  }
  try {
    const response = await ctx.fetch(url, { method: 'HEAD', credentials: 'omit', signal: ctx.signal });
    response.body?.cancel().catch(() => undefined);
    return isMissingStatus(response.status);
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return false;
  }
}
