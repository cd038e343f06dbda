import { Attr } from './constants.js';
import { absolutizeCssUrls, inlineFontFaces, parseSheet, scopeInstanceCss } from './compile-css.js';
import { CssNameRegister, renameCssText, renameInlineStyles, type CssRenames } from './compile-css-names.js';
import { absolutizeImageValues } from './compile-image-values.js';
import { referencedUrls } from './compile-dependencies.js';
import { CompileIssueCode } from './compile-codes.js';
import { DEFAULT_LIMITS, loadFont, loadImage, loadText, type CompileLimits, type Loader } from './compile-loader.js';
import { ReadScope } from './compile-reads.js';
import { declarationList } from './declaration-map.js';
import { FxError, isFxError } from './errors.js';
import { compositionRoot, parseHtml } from './html.js';
import { issue, type Issue } from './issues.js';
import { durationMissingIssue, MetadataIssueCode, rootMetadata } from './root-metadata.js';
import { metadataOf, type CompositionMetadata } from './metadata.js';
import { COMPAT_NONE, FrameAttr, CONFIG_ELEMENT_ID, HYPERFRAMES_GLOBALS, type FrameConfig } from './frame-config.js';
import { parseUrl } from './data.js';
import { RUNTIME_FAILED_HANDLER } from './runtime-script.js';

export { CompileIssueCode } from './compile-codes.js';
export type { CompileLimits } from './compile-loader.js';

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
   * See compile-reads.ts for the rules (content types per role, redirects, `blob:`, `file:` and markup entries).
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

interface Context extends Loader {
  readonly inlineFonts: boolean;
  /** The HyperFrames-named globals are on (see `HYPERFRAMES_GLOBALS`): instance scripts get scoped ones too. */
  aliases: boolean;
  readonly issues: Issue[];
  readonly doc: Document;
  instances: number;
  /** Characters the compiled document has so far (an estimate from the sources inlined). */
  documentBytes: number;
  /** Limit codes already reported: the hosts after the first past a limit are left empty without another issue. */
  readonly reported: Set<string>;
  /** The document-wide CSS names defined so far (@keyframes, @property, @font-face), first come first kept. */
  readonly cssNames: CssNameRegister;
}

const SOURCE_ATTRIBUTES = ['src', 'href', 'poster', Attr.compositionSrc] as const;
/** Where a project's files live: what the compiler may fetch an image from (never `data:`, `blob:` or others). */
const HIERARCHICAL_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'file:']);
const FALLBACK_BASE = 'https://entry.fx.invalid/';
const STYLESHEET_LINKS = 'link[rel~="stylesheet" i][href]';
/** Script types that run as classic scripts: the ones a function can wrap (modules have their own scope). */
const CLASSIC_SCRIPT_TYPES: ReadonlySet<string> = new Set(['', 'text/javascript', 'application/javascript']);

/** Refusals of a font or top-level stylesheet: the URL is left for the frame to load itself, with a warning. */
const LEFT_FOR_THE_FRAME: ReadonlySet<string> = new Set([
  CompileIssueCode.urlOutsideScope,
  CompileIssueCode.typeRefused,
  CompileIssueCode.filesTooMany,
]);
/** Limits past which every later host fails the same way: reported once. */
const REPORTED_ONCE: ReadonlySet<string> = new Set([
  CompileIssueCode.subTooMany,
  CompileIssueCode.compiledTooLarge,
  CompileIssueCode.filesTooMany,
]);

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

  const config: FrameConfig = {
    version: 1,
    compositionId: metadata.id ?? '',
    duration: metadata.duration ?? 0,
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
 * compile issue (`composition_duration_missing`, an `error` event in the element), reported in `issues` only.
 */
function entryMetadata(doc: Document, issues: Issue[]): CompositionMetadata {
  const metadata = metadataOf(doc);
  if (metadata.duration !== undefined) return metadata;
  const missing = metadata.issues.find((found) => found.code === MetadataIssueCode.durationMissing);
  const got =
    compositionRoot(doc)?.getAttribute(Attr.duration) ?? doc.documentElement.getAttribute(Attr.duration) ?? undefined;
  issues.push(missing ?? durationMissingIssue(got));
  return { ...metadata, issues: metadata.issues.filter((found) => found !== missing) };
}

/** A fragment entry whose root lives in a `<template>`: move the template's content into the body. */
function liftTemplateRoot(doc: Document): void {
  if (doc.body.querySelector(`[${Attr.compositionId}]`)) return;
  const template = [...doc.querySelectorAll('template')].find((candidate) =>
    candidate.content.querySelector(`[${Attr.compositionId}]`),
  );
  if (template) template.replaceWith(doc.importNode(template.content, true));
}

/** Where relative URLs of `doc` resolve: its `<base href>` (against `url`), else `url`. */
function resolveBase(doc: Document, url: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  return href ? (parseUrl(href, url)?.href ?? url) : url;
}

/**
 * Text we write into a `<script>` or `<style>` is serialised raw, so `</script` or `</style` inside it would end
 * the element early and turn the rest into markup. `<\/` means the same in JS strings, regexes and comments and in
 * CSS strings and comments; `<!--` is escaped for the script parser's comment states.
 */
function inertInRawText(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`<(/${element})`, 'gi'), '<\\$1').replace(/<!--/g, '<\\!--');
}

/**
 * The CSS of a `<style>`, or of the stylesheet a `<link>` names, with its `url()`s made absolute against the file
 * that wrote them and its fonts inlined (the frame cannot fetch those without CORS). A font that may not be read
 * keeps its URL, for the frame to load itself, and is reported as a warning at `path`.
 */
async function loadStylesheet(ctx: Context, element: Element, base: string, path: readonly string[]): Promise<string> {
  const isLink = element.localName === 'link';
  const url = isLink ? new URL(element.getAttribute('href')!, base).href : base;
  const text = isLink ? await loadText(ctx, url, 'stylesheet') : (element.textContent ?? '');
  const css = absolutizeCssUrls(text, url);
  if (!ctx.inlineFonts) return css;
  return inlineFontFaces(css, (font) =>
    loadFont(ctx, font).catch((error: unknown) => {
      if (isFxError(error) && LEFT_FOR_THE_FRAME.has(error.code)) reportLeftForTheFrame(ctx, error, [...path, font]);
      return undefined;
    }),
  );
}

function reportLeftForTheFrame(ctx: Context, error: FxError, path: readonly string[]): void {
  if (REPORTED_ONCE.has(error.code) && ctx.reported.has(error.code)) return;
  ctx.reported.add(error.code);
  ctx.issues.push(issue(error.code, path, `${error.message}; left for the frame to load itself`, 'warning'));
}

/** The top-level stylesheets: linked ones are inlined, and every font is (the frame cannot fetch them). */
async function inlineStylesheets(ctx: Context, doc: Document, base: string): Promise<void> {
  for (const link of doc.querySelectorAll(STYLESHEET_LINKS)) {
    const href = link.getAttribute('href') ?? '';
    try {
      const css = await loadStylesheet(ctx, link, base, [href]);
      ctx.documentBytes += css.length;
      link.replaceWith(createElement(doc, 'style', {}, inertInRawText(css, 'style')));
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      // Left as a link: the frame loads it itself, under the browser's rules (without fonts served without CORS).
      if (isFxError(error) && LEFT_FOR_THE_FRAME.has(error.code)) reportLeftForTheFrame(ctx, error, [href]);
    }
  }
  for (const style of doc.querySelectorAll('style')) {
    if (!style.textContent?.includes('@font-face')) continue;
    style.textContent = await loadStylesheet(ctx, style, base, []);
    ctx.documentBytes += style.textContent.length;
  }
}

/**
 * The entry's own classic `<script src>`s the composition may read, inlined. The frame's opaque origin gets no
 * HTTP cache, so it would download them again at every load and reload (a 70 KB animation library each time); the
 * host's fetch is cached. Left as they are, for the frame to load itself: `async`/`defer` ones (inline scripts
 * cannot keep that timing), `integrity` ones, modules, others' hosts, and any that fails to load here or would pass
 * the document size limit. (An inlined script sees no `document.currentScript.src`.)
 */
async function inlineScripts(ctx: Context, doc: Document, base: string): Promise<void> {
  const scripts = [...doc.querySelectorAll('script[src]')].flatMap((script) => {
    const kept = ['async', 'defer', 'integrity', 'nomodule'].some((name) => script.hasAttribute(name));
    const classic = CLASSIC_SCRIPT_TYPES.has(script.getAttribute('type')?.trim().toLowerCase() ?? '');
    const url = parseUrl(script.getAttribute('src')!, base);
    return !kept && classic && url && HIERARCHICAL_PROTOCOLS.has(url.protocol) && ctx.scope.allows(url)
      ? [{ script, url: url.href }]
      : [];
  });
  const loaded = await Promise.all(
    scripts.map(({ url }) =>
      loadText(ctx, url, 'script').catch((error: unknown) => {
        if (ctx.signal?.aborted) throw error;
        return undefined;
      }),
    ),
  );
  scripts.forEach(({ script }, index) => {
    const code = loaded[index];
    if (code === undefined || ctx.documentBytes + code.length > ctx.limits.documentBytes) return;
    ctx.documentBytes += code.length;
    script.removeAttribute('src');
    script.removeAttribute('crossorigin');
    script.removeAttribute('charset');
    script.textContent = inertInRawText(code, 'script');
  });
}

/**
 * `<img crossorigin>` asks for a CORS load, which the frame's opaque origin gets only from servers that allow any
 * origin: a project's own server seldom does, and the image would not show. Those the composition may read (its
 * folder, `allowCompositionReadsUnder`) become `data:` URLs; others are left for the frame, under the web's rules.
 */
async function inlineCorsImages(ctx: Context, doc: Document, base: string): Promise<void> {
  const images = [...doc.querySelectorAll('img[crossorigin][src]')].flatMap((image) => {
    const url = parseUrl(image.getAttribute('src')!, base);
    return url && HIERARCHICAL_PROTOCOLS.has(url.protocol) && ctx.scope.allows(url) ? [{ image, url: url.href }] : [];
  });
  await Promise.all(
    images.map(async ({ image, url }) => {
      try {
        const data = await loadImage(ctx, url);
        if (ctx.documentBytes + data.length > ctx.limits.documentBytes) {
          throw new FxError(
            CompileIssueCode.compiledTooLarge,
            `the compiled document would pass ${ctx.limits.documentBytes} characters`,
          );
        }
        ctx.documentBytes += data.length;
        image.setAttribute('src', data);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        if (isFxError(error)) reportLeftForTheFrame(ctx, error, [image.getAttribute('src')!]);
      }
    }),
  );
}

/** Inlines every `[data-composition-src]` host under `container`, depth first. */
async function inlineHosts(ctx: Context, container: Element, base: string, stack: string[]): Promise<void> {
  for (const host of container.querySelectorAll(`[${Attr.compositionSrc}]`)) {
    // Hosts authored inside another host's placeholder content were dropped when that host was inlined.
    if (host.hasAttribute(FrameAttr.instance) || !container.contains(host)) continue;
    try {
      const url = await inlineHost(ctx, host, base, stack);
      await inlineHosts(ctx, host, url, [...stack, url]);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      const code = error instanceof FxError ? error.code : CompileIssueCode.subInvalid;
      const message = error instanceof Error ? error.message : String(error);
      const path = [...stack.slice(1), host.getAttribute(Attr.compositionSrc) ?? ''];
      host.setAttribute(FrameAttr.error, code);
      host.replaceChildren();
      if (REPORTED_ONCE.has(code) && ctx.reported.has(code)) continue;
      ctx.reported.add(code);
      const more = REPORTED_ONCE.has(code) ? '; later hosts past the limit are left empty too' : '';
      ctx.issues.push(
        issue(code, path, `sub-composition ${path.map((part) => `"${part}"`).join(' > ')}: ${message}${more}`),
      );
    }
  }
}

/** The URL of the sub-composition `raw` names (against `base`); refused when not loadable, a cycle or too deep. */
function subCompositionUrl(ctx: Context, raw: string, base: string, stack: string[]): string {
  const url = parseUrl(raw, base);
  if (!url) throw new FxError(CompileIssueCode.subUrlRefused, `"${raw}" is not a valid URL`);
  if (!['http:', 'https:', 'blob:'].includes(url.protocol) && !(url.protocol === 'file:' && base.startsWith('file:'))) {
    throw new FxError(
      CompileIssueCode.subUrlRefused,
      `"${raw}" uses ${url.protocol}; sub-compositions load over http(s) only`,
    );
  }
  const href = url.href;
  if (stack.includes(href))
    throw new FxError(CompileIssueCode.subCycle, `"${raw}" includes itself (${[...stack, href].join(' > ')})`);
  if (stack.length > ctx.limits.depth)
    throw new FxError(CompileIssueCode.subTooDeep, `nesting deeper than ${ctx.limits.depth} sub-compositions`);
  return href;
}

/** Inlines one host's sub-composition as a scoped instance; returns the sub-composition's URL. */
async function inlineHost(ctx: Context, host: Element, base: string, stack: string[]): Promise<string> {
  const raw = host.getAttribute(Attr.compositionSrc) ?? '';
  if (ctx.instances >= ctx.limits.instances)
    throw new FxError(CompileIssueCode.subTooMany, `more than ${ctx.limits.instances} sub-composition instances`);
  const href = subCompositionUrl(ctx, raw, base, stack);
  const text = await loadText(ctx, href, 'sub');
  if (text.trim() === '') throw new FxError(CompileIssueCode.subEmpty, `"${raw}" is empty`);
  const sub = parseHtml(text);
  liftTemplateRoot(sub);
  const subRoot = compositionRoot(sub) ?? (sub.body.children.length > 0 ? sub.body : undefined);
  if (!subRoot) throw new FxError(CompileIssueCode.subInvalid, `"${raw}" has no composition root and no content`);
  const { duration } = rootMetadata(sub);

  const compositionId =
    host.getAttribute(Attr.compositionId) ?? subRoot.getAttribute(Attr.compositionId) ?? 'composition';
  // Only word characters from the author's id: the instance id goes into selectors and script text.
  const instance = `${compositionId.replace(/[^\w-]/g, '_')}-${++ctx.instances}`;
  const scope = `[${FrameAttr.instance}="${instance}"]`;
  const hostDeclares = host.hasAttribute(Attr.compositionVariables);
  host.setAttribute(FrameAttr.instance, instance);
  host.setAttribute(Attr.compositionId, compositionId);
  for (const { name, value } of subRoot === sub.body ? [] : subRoot.attributes) {
    if (!host.hasAttribute(name) && name !== 'id') host.setAttribute(name, value);
  }
  // Declarations may sit on the sub-composition's <html>; the instance root carries them in the compiled document.
  const declarations = sub.documentElement.getAttribute(Attr.compositionVariables);
  if (declarations !== null && !host.hasAttribute(Attr.compositionVariables))
    host.setAttribute(Attr.compositionVariables, declarations);
  absolutizeImageValues(host, hostDeclares ? base : href, base);
  if (duration !== undefined && !host.hasAttribute(Attr.duration)) host.setAttribute(Attr.duration, String(duration));

  const texts: string[] = [];
  const path = [...stack.slice(1), href];
  for (const element of sub.querySelectorAll(`style, ${STYLESHEET_LINKS}`)) {
    texts.push(await loadStylesheet(ctx, element, href, path));
    element.remove();
  }
  let renames: CssRenames | undefined;
  let bridge = '';
  const css = scopeInstanceCss(texts, scope, { compositionId, elementId: subRoot.id || undefined }, (sheets) => {
    ({ renames, bridge } = ctx.cssNames.isolate(sheets, instance, scope, declaredIds(host)));
    return (text) => renameCssText(text, renames!);
  });
  // Scripts outside the root (head, after the template) run after the instance content, in order.
  const outside = [...sub.querySelectorAll('script')]
    .filter((script) => !subRoot.contains(script))
    .map((script) => ctx.doc.importNode(script, true));
  const content = ctx.doc.importNode(subRoot, true);
  rewriteUrls(content, href);
  if (renames) renameInlineStyles(content, renames);
  let added = text.length;
  for (const script of [...content.querySelectorAll('script'), ...outside])
    added += await wrapInstanceScript(ctx, script, instance, href);

  const styleText = inertInRawText([css, bridge].filter(Boolean).join('\n'), 'style');
  added += styleText.length;
  if (ctx.documentBytes + added > ctx.limits.documentBytes) {
    throw new FxError(
      CompileIssueCode.compiledTooLarge,
      `the compiled document would pass ${ctx.limits.documentBytes} characters`,
    );
  }
  ctx.documentBytes += added;
  host.replaceChildren(
    createElement(ctx.doc, 'style', { [FrameAttr.instanceStyle]: instance }, styleText),
    ...content.childNodes,
    ...outside,
  );
  return href;
}

/** The variable ids an instance root declares (none when its declarations are malformed: the runtime reports those). */
function declaredIds(host: Element): Set<string> {
  try {
    const declarations = declarationList(JSON.parse(host.getAttribute(Attr.compositionVariables) ?? '[]'));
    const ids = declarations.map((declaration) => (declaration as { id?: unknown } | null)?.id);
    return new Set(ids.filter((id): id is string => typeof id === 'string'));
  } catch {
    return new Set();
  }
}

/** Rewrites relative asset URLs of inlined content against the sub-composition's own URL. */
function rewriteUrls(content: Element, base: string): void {
  const absolute = (value: string) => parseUrl(value, base)?.href ?? value;
  for (const element of [content, ...content.querySelectorAll('*')]) {
    for (const name of SOURCE_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (
        value !== null &&
        value.trim() !== '' &&
        !value.startsWith('#') &&
        !/^(data|blob|javascript):/i.test(value.trim())
      ) {
        element.setAttribute(name, absolute(value));
      }
    }
    const srcset = element.getAttribute('srcset');
    if (srcset) {
      element.setAttribute(
        'srcset',
        srcset
          .split(',')
          .map((part) => {
            const [url, ...descriptor] = part.trim().split(/\s+/);
            return [url ? absolute(url) : '', ...descriptor].join(' ');
          })
          .join(', '),
      );
    }
    const style = element.getAttribute('style');
    if (style?.includes('url(')) element.setAttribute('style', absolutizeCssUrls(style, base));
  }
}

/**
 * Wraps a sub-composition script so that `window`, `globalThis`, `self` and `__fx` inside it are the instance's
 * scoped views: `__fx.getVariables()` answers with the instance's values, `window.__timelines` registers the
 * instance's timelines, and `__fxVariables` (the top level's overrides, which never reach an instance) is
 * undefined; with the HyperFrames aliases on, `__hyperframes` and `__hfVariables` likewise. External scripts are fetched and inlined so they can be wrapped too. Returns the characters of code
 * fetched. This scoping keeps well-behaved scripts apart; it is **not a security boundary**: all instances share
 * one realm, and a script reaches the real globals through `document.defaultView`, `Function('return this')()`,
 * the config element, or the DOM of the rest of the composition.
 */
async function wrapInstanceScript(ctx: Context, script: Element, instance: string, base: string): Promise<number> {
  // Modules cannot be wrapped; they see the top-level __fx.
  if (!CLASSIC_SCRIPT_TYPES.has(script.getAttribute('type')?.trim().toLowerCase() ?? '')) return 0;
  let code = script.textContent ?? '';
  const src = script.getAttribute('src');
  if (src) {
    code = await loadText(ctx, new URL(src, base).href, 'script');
    script.removeAttribute('src');
  }
  script.setAttribute(FrameAttr.instanceScript, instance);
  const aliases = ctx.aliases ? `, ${HYPERFRAMES_GLOBALS.runtime}, ${HYPERFRAMES_GLOBALS.overrides}` : '';
  script.textContent = `__fx.runInstanceScript(${JSON.stringify(instance)}, function (window, globalThis, self, __fx, __fxVariables${aliases}) {\n${inertInRawText(code, 'script')}\n});`;
  return src ? code.length : 0;
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

/** `<name attributes…>text</name>`, made in `doc`. */
function createElement(doc: Document, name: string, attributes: Record<string, string>, text?: string): Element {
  const element = doc.createElement(name);
  for (const [attribute, value] of Object.entries(attributes)) element.setAttribute(attribute, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function stampNonce(doc: Document, nonce: string): void {
  for (const element of doc.querySelectorAll('script, style')) element.setAttribute('nonce', nonce);
}
