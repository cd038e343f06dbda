import { Attr } from '../constants.js';
import { parseSheet } from './css.js';
import { CssNameRegister } from './css-names.js';
import { referencedUrls } from './dependencies.js';
import { CompileIssueCode } from './codes.js';
import { DEFAULT_LIMITS, loadText, type CompileLimits, type Loader } from './loader.js';
import { ReadScope } from './reads.js';
import { FxError } from '../errors.js';
import { compositionRoot, parseHtml } from '../html.js';
import { type Issue } from '../issues.js';
import { durationText, entryDurationIssue, MetadataIssueCode } from '../root-metadata.js';
import { DurationSource } from '../timeline-duration.js';
import { metadataOf, type CompositionMetadata } from '../metadata.js';
import { COMPAT_NONE, CONFIG_ELEMENT_ID, type FrameConfig } from '../frame-config.js';
import { parseUrl } from '../data.js';
import { RUNTIME_FAILED_HANDLER } from '../runtime-script.js';
import { createElement, inertInRawText, liftTemplateRoot, type Context } from './context.js';
import { inlineCorsImages, inlineScripts, inlineStylesheets } from './assets.js';
import { inlineHosts } from './instances.js';
import { checkProjectFiles } from './files.js';

export { CompileIssueCode } from './codes.js';
export type { CompileLimits } from './loader.js';

export interface CompileOptions {
  /** Absolute URL of `fx-runtime.js`, referenced by the compiled document. Give this or `runtimeScript`. */
  readonly runtimeUrl?: string | URL;
  /**
   * The code of `fx-runtime.js`, written into the compiled document instead of a `runtimeUrl` reference: no
   * request, nothing for a bundler to copy, but a CSP must allow it as an inline script (or pass `nonce`).
   */
  readonly runtimeScript?: string;
  /** Fetches the entry, sub-compositions, stylesheets, scripts and fonts. Defaults to `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Folders (URL prefixes), beyond the entry's own folder, whose files the composition may have this compiler
   * fetch and inline into its frame: sub-compositions, stylesheets, sub-composition scripts and fonts. **Whatever
   * is served there becomes readable by the composition's scripts, fetched from this page's network position**
   * (without cookies) — list only folders of public files meant for compositions, never an origin's root that also
   * serves pages or APIs. Each `http(s)`/`file:` entry names a folder (`https://cdn.example/kit` and `…/kit/` both
   * allow `https://cdn.example/kit/…`); a `blob:` entry names that one blob. Default: none, the entry's folder only.
   * See compile/reads.ts for the rules (content types per role, redirects, `blob:`, `file:` and markup entries).
   */
  readonly allowCompositionReadsUnder?: readonly (string | URL)[];
  /**
   * Top-level overrides, delivered to the runtime as `window.__fxVariables`. A function is called once with the
   * entry's metadata, before anything else is fetched, for overrides that depend on the declarations (the element
   * inlines the files of declared font variables this way).
   */
  readonly overrides?: Record<string, unknown> | ((metadata: CompositionMetadata) => Promise<Record<string, unknown>>);
  /** Frame grid for seeking (default 30). */
  readonly fps?: number;
  /** A CSP nonce stamped on every script and style of the document, so they run under a nonce-based policy. */
  readonly nonce?: string;
  /** Inline @font-face files as data: URLs (default true): the frame's opaque origin cannot load them without CORS. */
  readonly inlineFonts?: boolean;
  readonly limits?: CompileLimits;
  readonly signal?: AbortSignal;
}

/** An entry given as markup instead of a URL; `url` is its base for relative paths. */
export interface HtmlEntry {
  readonly html: string;
  readonly url?: string | URL;
}

export interface CompiledComposition {
  /** One self-contained document, ready for a frame or the renderer's page. */
  readonly html: string;
  /** The entry's metadata, read before any script ran (root size and duration are fixed here). */
  readonly metadata: CompositionMetadata;
  /** Problems found (broken sub-compositions carry their path); the document still plays. */
  readonly issues: Issue[];
  /**
   * Absolute URLs of the files the composition uses: what this compile read (the entry, sub-compositions,
   * stylesheets, scripts, fonts; failed reads left out) and what the compiled document names (images, media,
   * posters, CSS `url()`s, files of image and font variables). Sorted, without `data:` URLs. What a project zip
   * of the composition holds (`<fx-composition>.projectFiles()`), before the read scope is applied.
   */
  readonly dependencies: readonly string[];
  /** Where the frame configuration's JSON stands in `html`, so {@link withOverrides} can swap the values alone. */
  readonly configSpan: { readonly start: number; readonly end: number };
}

const FALLBACK_BASE = 'https://entry.fx.invalid/';

/**
 * Compiles a composition into one self-contained document: sub-composition hosts are fetched (relative to the file
 * naming them), inlined and scoped, asset URLs rewritten against each file's own URL, instance scripts wrapped so
 * `window.__fx.getVariables()` returns that instance's values, and the runtime plus its configuration injected.
 * Runs in a browser (it uses the browser's HTML and CSS parsers), so the preview and the renderer's Chromium
 * produce the same document.
 *
 * @example
 * const { html } = await compileComposition(new URL('comp/index.html', location.href), { runtimeUrl });
 * iframe.srcdoc = html;
 */
export async function compileComposition(
  entry: string | URL | HtmlEntry,
  options: CompileOptions,
): Promise<CompiledComposition> {
  if (options.runtimeUrl === undefined && options.runtimeScript === undefined) {
    throw new FxError(
      CompileIssueCode.optionsInvalid,
      'one of "runtimeUrl" and "runtimeScript" must be given, got neither',
    );
  }
  const isMarkup = typeof entry === 'object' && !(entry instanceof URL);
  const pageUrl = globalThis.location?.href ?? FALLBACK_BASE;
  const baseUrl = new URL(isMarkup ? (entry.url ?? FALLBACK_BASE) : entry, pageUrl).href;
  const context: Loader = {
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    scope: new ReadScope(baseUrl, options.allowCompositionReadsUnder ?? [], pageUrl),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    signal: options.signal,
    files: new Map(),
    totalBytes: 0,
  };
  const source = isMarkup ? entry.html : await loadText(context, baseUrl, 'entry');
  if (source.trim() === '') throw new FxError(CompileIssueCode.entryEmpty, `composition "${baseUrl}" is empty`);

  const doc = parseHtml(source);
  const ctx: Context = Object.assign(context, {
    doc,
    inlineFonts: options.inlineFonts ?? true,
    issues: [] as Issue[],
    instances: 0,
    aliases: true,
    documentBytes: source.length,
    reported: new Set<string>(),
    cssNames: new CssNameRegister(),
  });
  const metadata = entryMetadata(doc, ctx.issues);
  // Started now so its fetches overlap the sub-compositions'; awaited at the end (a compile that fails first drops it).
  const overrides =
    typeof options.overrides === 'function' ? options.overrides(metadata) : Promise.resolve(options.overrides ?? {});
  overrides.catch(() => undefined);
  liftTemplateRoot(doc);
  const root = compositionRoot(doc);
  if (!root)
    throw new FxError(
      CompileIssueCode.entryInvalid,
      `composition "${baseUrl}" has no element with "${Attr.compositionId}"`,
    );
  ctx.aliases = ![root, doc.documentElement].some(
    (element) => element.getAttribute(Attr.compat)?.trim().toLowerCase() === COMPAT_NONE,
  );

  // The document's own <base href> decides where its relative URLs point, in the frame and here alike.
  const documentBase = resolveBase(doc, baseUrl);
  // Only with an inline runtime: a page that names a runtime URL may forbid inline scripts (a CSP without
  // 'unsafe-inline' or a nonce), and an inlined composition script would then not run at all. Started first (it
  // picks the entry's own scripts at once) so its fetches overlap the stylesheets' and sub-compositions'.
  const scripts = options.runtimeScript !== undefined ? inlineScripts(ctx, doc, documentBase) : undefined;
  scripts?.catch(() => undefined);
  await inlineStylesheets(ctx, doc, documentBase);
  // The entry's own @keyframes, @property and @font-face names are kept; an instance's clashing ones are renamed.
  for (const style of doc.querySelectorAll('style')) {
    const sheet = parseSheet(style.textContent ?? '');
    if (sheet) ctx.cssNames.register(sheet);
  }
  await inlineHosts(ctx, root, documentBase, [baseUrl]);
  await inlineCorsImages(ctx, doc, documentBase);
  await scripts;
  await checkProjectFiles(ctx, doc, documentBase, baseUrl);

  const config: FrameConfig = {
    version: 1,
    compositionId: metadata.id ?? '',
    duration: metadata.duration ?? 0,
    durationFromTimeline: metadata.durationSource === DurationSource.timeline,
    width: metadata.width ?? 1920,
    height: metadata.height ?? 1080,
    fps: options.fps ?? 30,
    overrides: await overrides,
    aliases: ctx.aliases,
  };
  const dependencies = [...new Set([...(await succeededReads(context)), ...referencedUrls(doc, documentBase)])].sort();
  // Serialized around a marker the source cannot hold, so the configuration's place in the output is known exactly.
  // (getRandomValues: randomUUID is missing from pages that are not secure contexts.)
  const marker = `fx-config-${crypto.getRandomValues(new Uint32Array(4)).join('-')}`;
  injectHead(doc, documentBase, runtimeElement(doc, options), marker);
  if (options.nonce) stampNonce(doc, options.nonce);
  const [before = '', after = ''] = `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`.split(marker);
  const configJson = configText(config);
  const configSpan = { start: before.length, end: before.length + configJson.length };
  return { html: before + configJson + after, metadata, issues: ctx.issues, dependencies, configSpan };
}

/**
 * `compiled` with other top-level overrides, without compiling again: for a reload that changes only values (the
 * caller inlines what values name, such as font files, as the compile's `overrides` function would have).
 */
export function withOverrides(compiled: CompiledComposition, overrides: Record<string, unknown>): CompiledComposition {
  const { html, configSpan } = compiled;
  const config: FrameConfig = { ...JSON.parse(html.slice(configSpan.start, configSpan.end)), overrides };
  const configJson = configText(config);
  return {
    ...compiled,
    html: html.slice(0, configSpan.start) + configJson + html.slice(configSpan.end),
    configSpan: { start: configSpan.start, end: configSpan.start + configJson.length },
  };
}

/** The configuration element's text: JSON with `<` escaped, so no value can close the element. */
const configText = (config: FrameConfig) => JSON.stringify(config).replace(/</g, '\\u003c');

/** The URLs this compile fetched successfully (each once, whatever its role). */
async function succeededReads(loader: Loader): Promise<string[]> {
  const reads = [...loader.files];
  const results = await Promise.allSettled(reads.map(([, result]) => result));
  return reads
    .filter((_, index) => results[index]!.status === 'fulfilled')
    .map(([key]) => key.slice(key.indexOf(' ') + 1));
}

/**
 * The entry's metadata. An entry without a positive duration would play for 0 s and cannot render: that is a
 * compile issue (`composition_duration_missing`, an `error` event in the element), reported in `issues` only —
 * unless its duration comes from the timeline its scripts register (a warning; the frame measures it).
 */
function entryMetadata(doc: Document, issues: Issue[]): CompositionMetadata {
  const metadata = metadataOf(doc);
  if (metadata.duration !== undefined) return metadata;
  if (metadata.durationSource === DurationSource.timeline) {
    // A `<template>` root has no finding of its own (as a sub-composition it would last as long as its host).
    const told = metadata.issues.some((found) => found.code === MetadataIssueCode.durationFromTimeline);
    return told ? metadata : { ...metadata, issues: [...metadata.issues, entryDurationIssue(doc, undefined)] };
  }
  const missing = metadata.issues.find((found) => found.code === MetadataIssueCode.durationMissing);
  issues.push(missing ?? entryDurationIssue(doc, durationText(doc)));
  return { ...metadata, issues: metadata.issues.filter((found) => found !== missing) };
}

/** Where relative URLs of `doc` resolve: its `<base href>` (against `url`), else `url`. */
function resolveBase(doc: Document, url: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  return href ? (parseUrl(href, url)?.href ?? url) : url;
}

/**
 * Prepends what the frame needs: a charset, the `<base>` this compile resolved against (the frame's own URL is
 * about:srcdoc), the runtime's configuration and the runtime. The `<base>` loses its query and fragment: the
 * composition's scripts read it, and for a `srcdoc` entry it is the host page's URL, whose query may hold tokens.
 */
function injectHead(doc: Document, base: string, runtime: Element, config: string): void {
  const head = doc.head;
  const added: Element[] = [];
  const href = withoutQuery(base);
  if (!head.querySelector('meta[charset]')) added.push(createElement(doc, 'meta', { charset: 'utf-8' }));
  const existingBase = head.querySelector('base[href]');
  if (existingBase) existingBase.setAttribute('href', href);
  else added.push(createElement(doc, 'base', { href }));
  added.push(createElement(doc, 'script', { type: 'application/json', id: CONFIG_ELEMENT_ID }, config), runtime);
  head.prepend(...added);
}

/** The runtime's `<script>`: its code inline, else a reference that tells the host when it fails to load. */
function runtimeElement(doc: Document, options: CompileOptions): Element {
  if (options.runtimeScript !== undefined)
    return createElement(doc, 'script', {}, inertInRawText(options.runtimeScript, 'script'));
  return createElement(doc, 'script', { src: String(options.runtimeUrl), onerror: RUNTIME_FAILED_HANDLER });
}

/** `url` without its query and fragment. */
function withoutQuery(url: string): string {
  const parsed = parseUrl(url);
  if (!parsed) return url;
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

function stampNonce(doc: Document, nonce: string): void {
  for (const element of doc.querySelectorAll('script, style')) element.setAttribute('nonce', nonce);
}
