import { Attr } from './constants.js';
import { absolutizeCssUrls, inlineFontFaces, scopeCss } from './compile-css.js';
import { absolutizeImageValues } from './compile-image-values.js';
import { FxError } from './errors.js';
import { compositionRoot, parseHtml } from './html.js';
import { issue, type Issue } from './issues.js';
import { rootMetadata } from './root-metadata.js';
import { metadataOf, type CompositionMetadata } from './metadata.js';
import { FrameAttr, CONFIG_ELEMENT_ID, type FrameConfig } from './frame-config.js';
import { blobToDataUrl, parseUrl } from './data.js';

/** Codes of compile problems. Broken sub-compositions are issues (the rest still plays); a broken entry throws. */
export const CompileIssueCode = {
  entryNotFound: 'composition_not_found',
  entryEmpty: 'composition_empty',
  entryInvalid: 'composition_invalid',
  tooLarge: 'composition_too_large',
  subNotFound: 'subcomposition_not_found',
  subEmpty: 'subcomposition_empty',
  subInvalid: 'subcomposition_invalid',
  subUrlRefused: 'subcomposition_url_refused',
  subCycle: 'subcomposition_cycle',
  subTooDeep: 'subcomposition_too_deep',
  subTooLarge: 'subcomposition_too_large',
} as const;
export type CompileIssueCode = (typeof CompileIssueCode)[keyof typeof CompileIssueCode];

export interface CompileLimits {
  /** Deepest sub-composition nesting (default 8). */
  readonly depth?: number;
  /** Largest single file in bytes (default 4 MiB). */
  readonly fileBytes?: number;
  /** All files together (default 32 MiB). */
  readonly totalBytes?: number;
}

export interface CompileOptions {
  /** Absolute URL of `fx-runtime.js`, referenced by the compiled document. */
  readonly runtimeUrl: string | URL;
  /** Fetches the entry, sub-compositions, stylesheets, scripts and fonts. Defaults to `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Top-level overrides, delivered to the runtime as `window.__fxVariables`. */
  readonly overrides?: Record<string, unknown>;
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
}

/** What loading files needs: the fetch, the limits and the running byte count. */
interface Loader {
  readonly fetch: typeof fetch;
  readonly limits: Required<CompileLimits>;
  readonly signal: AbortSignal | undefined;
  readonly inlineFonts: boolean;
  /** Files already fetched in this compile: a source mounted many times is fetched and counted once. */
  readonly files: Map<string, Promise<string>>;
  totalBytes: number;
}

interface Context extends Loader {
  readonly issues: Issue[];
  readonly doc: Document;
  instances: number;
}

const SOURCE_ATTRIBUTES = ['src', 'href', 'poster', Attr.compositionSrc] as const;
const FALLBACK_BASE = 'https://entry.fx.invalid/';
const STYLESHEET_LINKS = 'link[rel~="stylesheet" i][href]';
/** Script types that run as classic scripts: the ones a function can wrap (modules have their own scope). */
const CLASSIC_SCRIPT_TYPES: ReadonlySet<string> = new Set(['', 'text/javascript', 'application/javascript']);

/** Why a file is fetched: it decides the credentials sent and the error codes of a failure. */
type FileRole = 'entry' | 'sub' | 'asset';

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
export function compileComposition(entry: string | URL | HtmlEntry, options: CompileOptions): Promise<CompiledComposition> {
  return compileWith(entry, options, metadataOf);
}

/** Reads a composition's metadata from its parsed document, before any script ran. */
export type MetadataReader = (doc: Document) => CompositionMetadata;

/**
 * {@link compileComposition} with the entry's metadata read by `readMetadata`. `<fx-composition>` passes
 * `rootMetadata` (root-metadata.ts), which leaves `metadata.variables` empty: its frame parses the declarations
 * and reports them when ready, so the element's bundle needs no declaration parser of its own.
 */
export async function compileWith(entry: string | URL | HtmlEntry, options: CompileOptions, readMetadata: MetadataReader): Promise<CompiledComposition> {
  const context: Loader = {
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    limits: { depth: 8, fileBytes: 4 * 1024 * 1024, totalBytes: 32 * 1024 * 1024, ...options.limits },
    signal: options.signal,
    inlineFonts: options.inlineFonts ?? true,
    files: new Map(),
    totalBytes: 0,
  };
  const isMarkup = typeof entry === 'object' && !(entry instanceof URL);
  const baseUrl = new URL(isMarkup ? (entry.url ?? FALLBACK_BASE) : entry, globalThis.location?.href ?? FALLBACK_BASE).href;
  const source = isMarkup ? entry.html : await loadText(context, baseUrl, 'entry');
  if (source.trim() === '') throw new FxError(CompileIssueCode.entryEmpty, `composition "${baseUrl}" is empty`);

  const doc = parseHtml(source);
  const ctx: Context = Object.assign(context, { doc, issues: [] as Issue[], instances: 0 });
  const metadata = readMetadata(doc);
  liftTemplateRoot(doc);
  const root = compositionRoot(doc);
  if (!root) throw new FxError(CompileIssueCode.entryInvalid, `composition "${baseUrl}" has no element with "${Attr.compositionId}"`);

  // The document's own <base href> decides where its relative URLs point, in the frame and here alike.
  const documentBase = resolveBase(doc, baseUrl);
  await inlineStylesheets(ctx, doc, documentBase);
  await inlineHosts(ctx, root, documentBase, [baseUrl]);

  const config: FrameConfig = {
    version: 1,
    compositionId: metadata.id ?? '',
    duration: metadata.duration ?? 0,
    width: metadata.width ?? 1920,
    height: metadata.height ?? 1080,
    fps: options.fps ?? 30,
    overrides: options.overrides ?? {},
  };
  injectHead(doc, documentBase, String(options.runtimeUrl), config);
  if (options.nonce) stampNonce(doc, options.nonce);
  return { html: `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`, metadata, issues: ctx.issues };
}

/** A fragment entry whose root lives in a `<template>`: move the template's content into the body. */
function liftTemplateRoot(doc: Document): void {
  if (doc.body.querySelector(`[${Attr.compositionId}]`)) return;
  const template = [...doc.querySelectorAll('template')].find((candidate) => candidate.content.querySelector(`[${Attr.compositionId}]`));
  if (template) template.replaceWith(doc.importNode(template.content, true));
}

/** A file's text, fetched once per compile however many times the composition names it. */
function loadText(ctx: Loader, url: string, role: FileRole): Promise<string> {
  const key = `${role} ${url}`;
  let text = ctx.files.get(key);
  if (!text) ctx.files.set(key, (text = fetchFile(ctx, url, role).then((file) => file.text())));
  return text;
}

/** A font file as a `data:` URL, or `undefined` when it cannot be had (the stylesheet keeps naming its URL). */
function loadDataUrl(ctx: Loader, url: string): Promise<string | undefined> {
  return fetchFile(ctx, url, 'asset').then(blobToDataUrl).catch(() => undefined);
}

/** Fetches a file and counts it against the size limits; a missing or oversized file is an {@link FxError}. */
async function fetchFile(ctx: Loader, url: string, role: FileRole): Promise<Blob> {
  const codes = role === 'entry'
    ? { missing: CompileIssueCode.entryNotFound, large: CompileIssueCode.tooLarge }
    : { missing: CompileIssueCode.subNotFound, large: CompileIssueCode.subTooLarge };
  let response: Response;
  try {
    response = await ctx.fetch(url, { signal: ctx.signal, credentials: credentialsFor(role) });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    throw new FxError(codes.missing, `"${url}" could not be fetched: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new FxError(codes.missing, `"${url}" answered HTTP ${response.status}`, { status: response.status });
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > ctx.limits.fileBytes) throw new FxError(codes.large, `"${url}" is ${declared} bytes; the limit is ${ctx.limits.fileBytes}`);
  const file = await response.blob();
  ctx.totalBytes += file.size;
  if (file.size > ctx.limits.fileBytes || ctx.totalBytes > ctx.limits.totalBytes) {
    throw new FxError(codes.large, `"${url}" takes the composition past its size limit (${ctx.limits.fileBytes} bytes a file, ${ctx.limits.totalBytes} in all)`);
  }
  return file;
}

/**
 * The entry is the host's own choice and may need its cookies; anything the composition names is fetched without
 * them, so a composition cannot pull the host's signed-in responses into its frame.
 */
function credentialsFor(role: FileRole): RequestCredentials {
  return role === 'entry' ? 'same-origin' : 'omit';
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
 * that wrote them and its fonts inlined (the frame cannot fetch those without CORS).
 */
async function loadStylesheet(ctx: Loader, element: Element, base: string): Promise<string> {
  const isLink = element.localName === 'link';
  const url = isLink ? new URL(element.getAttribute('href')!, base).href : base;
  const text = isLink ? await loadText(ctx, url, 'asset') : element.textContent ?? '';
  const css = absolutizeCssUrls(text, url);
  return ctx.inlineFonts ? inlineFontFaces(css, (font) => loadDataUrl(ctx, font)) : css;
}

/** The top-level stylesheets: linked ones are inlined, and every font is (the frame cannot fetch them). */
async function inlineStylesheets(ctx: Context, doc: Document, base: string): Promise<void> {
  for (const link of doc.querySelectorAll(STYLESHEET_LINKS)) {
    try {
      const css = await loadStylesheet(ctx, link, base);
      link.replaceWith(createElement(doc, 'style', {}, inertInRawText(css, 'style')));
    } catch {
      // Left as a link: the frame loads it itself (without fonts served without CORS).
    }
  }
  for (const style of doc.querySelectorAll('style')) {
    if (style.textContent?.includes('@font-face')) style.textContent = await loadStylesheet(ctx, style, base);
  }
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
      ctx.issues.push(issue(code, path, `sub-composition ${path.map((part) => `"${part}"`).join(' > ')}: ${message}`));
    }
  }
}

/** The URL of the sub-composition `raw` names (against `base`); refused when not loadable, a cycle or too deep. */
function subCompositionUrl(ctx: Context, raw: string, base: string, stack: string[]): string {
  const url = parseUrl(raw, base);
  if (!url) throw new FxError(CompileIssueCode.subUrlRefused, `"${raw}" is not a valid URL`);
  if (!['http:', 'https:', 'blob:'].includes(url.protocol) && !(url.protocol === 'file:' && base.startsWith('file:'))) {
    throw new FxError(CompileIssueCode.subUrlRefused, `"${raw}" uses ${url.protocol}; sub-compositions load over http(s) only`);
  }
  const href = url.href;
  if (stack.includes(href)) throw new FxError(CompileIssueCode.subCycle, `"${raw}" includes itself (${[...stack, href].join(' > ')})`);
  if (stack.length > ctx.limits.depth) throw new FxError(CompileIssueCode.subTooDeep, `nesting deeper than ${ctx.limits.depth} sub-compositions`);
  return href;
}

/** Inlines one host's sub-composition as a scoped instance; returns the sub-composition's URL. */
async function inlineHost(ctx: Context, host: Element, base: string, stack: string[]): Promise<string> {
  const raw = host.getAttribute(Attr.compositionSrc) ?? '';
  const href = subCompositionUrl(ctx, raw, base, stack);
  const text = await loadText(ctx, href, 'sub');
  if (text.trim() === '') throw new FxError(CompileIssueCode.subEmpty, `"${raw}" is empty`);
  const sub = parseHtml(text);
  liftTemplateRoot(sub);
  const subRoot = compositionRoot(sub) ?? (sub.body.children.length > 0 ? sub.body : undefined);
  if (!subRoot) throw new FxError(CompileIssueCode.subInvalid, `"${raw}" has no composition root and no content`);
  const { duration } = rootMetadata(sub);

  const compositionId = host.getAttribute(Attr.compositionId) ?? subRoot.getAttribute(Attr.compositionId) ?? 'composition';
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
  if (declarations !== null && !host.hasAttribute(Attr.compositionVariables)) host.setAttribute(Attr.compositionVariables, declarations);
  absolutizeImageValues(host, hostDeclares ? base : href, base);
  if (duration !== undefined && !host.hasAttribute(Attr.duration)) host.setAttribute(Attr.duration, String(duration));

  const styles: string[] = [];
  for (const element of sub.querySelectorAll(`style, ${STYLESHEET_LINKS}`)) {
    styles.push(scopeCss(await loadStylesheet(ctx, element, href), scope, { compositionId, elementId: subRoot.id || undefined }));
    element.remove();
  }
  // Scripts outside the root (head, after the template) run after the instance content, in order.
  const outside = [...sub.querySelectorAll('script')].filter((script) => !subRoot.contains(script)).map((script) => ctx.doc.importNode(script, true));
  const content = ctx.doc.importNode(subRoot, true);
  rewriteUrls(content, href);
  for (const script of [...content.querySelectorAll('script'), ...outside]) await wrapInstanceScript(ctx, script, instance, href);

  const style = createElement(ctx.doc, 'style', { [FrameAttr.instanceStyle]: instance }, inertInRawText(styles.join('\n'), 'style'));
  host.replaceChildren(style, ...content.childNodes, ...outside);
  return href;
}

/** Rewrites relative asset URLs of inlined content against the sub-composition's own URL. */
function rewriteUrls(content: Element, base: string): void {
  const absolute = (value: string) => parseUrl(value, base)?.href ?? value;
  for (const element of [content, ...content.querySelectorAll('*')]) {
    for (const name of SOURCE_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value !== null && value.trim() !== '' && !value.startsWith('#') && !/^(data|blob|javascript):/i.test(value.trim())) {
        element.setAttribute(name, absolute(value));
      }
    }
    const srcset = element.getAttribute('srcset');
    if (srcset) {
      element.setAttribute('srcset', srcset.split(',').map((part) => {
        const [url, ...descriptor] = part.trim().split(/\s+/);
        return [url ? absolute(url) : '', ...descriptor].join(' ');
      }).join(', '));
    }
    const style = element.getAttribute('style');
    if (style?.includes('url(')) element.setAttribute('style', absolutizeCssUrls(style, base));
  }
}

/**
 * Wraps a sub-composition script so that `window`, `globalThis`, `self` and `__fx` inside it are the instance's
 * scoped views: `__fx.getVariables()` answers with the instance's values and `window.__timelines` registers the
 * instance's timelines. External scripts are fetched and inlined so they can be wrapped too.
 */
async function wrapInstanceScript(ctx: Context, script: Element, instance: string, base: string): Promise<void> {
  // Modules cannot be wrapped; they see the top-level __fx.
  if (!CLASSIC_SCRIPT_TYPES.has(script.getAttribute('type')?.trim().toLowerCase() ?? '')) return;
  let code = script.textContent ?? '';
  const src = script.getAttribute('src');
  if (src) {
    code = await loadText(ctx, new URL(src, base).href, 'asset');
    script.removeAttribute('src');
  }
  script.setAttribute(FrameAttr.instanceScript, instance);
  script.textContent = `__fx.runInstanceScript(${JSON.stringify(instance)}, function (window, globalThis, self, __fx) {\n${inertInRawText(code, 'script')}\n});`;
}

/**
 * Prepends what the frame needs: a charset, the `<base>` this compile resolved against (the frame's own URL is
 * about:srcdoc), the runtime's configuration and the runtime.
 */
function injectHead(doc: Document, base: string, runtimeUrl: string, config: FrameConfig): void {
  const head = doc.head;
  const added: Element[] = [];
  if (!head.querySelector('meta[charset]')) added.push(createElement(doc, 'meta', { charset: 'utf-8' }));
  const existingBase = head.querySelector('base[href]');
  if (existingBase) existingBase.setAttribute('href', base);
  else added.push(createElement(doc, 'base', { href: base }));
  // `<` escaped so no value can close the element.
  const configJson = JSON.stringify(config).replace(/</g, '\\u003c');
  added.push(createElement(doc, 'script', { type: 'application/json', id: CONFIG_ELEMENT_ID }, configJson), createElement(doc, 'script', { src: runtimeUrl }));
  head.prepend(...added);
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
