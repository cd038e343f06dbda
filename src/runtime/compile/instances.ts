/** Sub-compositions: each `[data-composition-src]` host inlined as a scoped instance, its scripts wrapped. */
import { Attr } from '../constants.js';
import { absolutizeCssUrls, scopeInstanceCss } from './css.js';
import { renameCssText, renameInlineStyles, type CssRenames } from './css-names.js';
import { absolutizeImageValues } from './image-values.js';
import { CompileIssueCode } from './codes.js';
import { loadText } from './loader.js';
import { declarationList } from '../declaration-map.js';
import { FxError } from '../errors.js';
import { compositionRoot, parseHtml } from '../html.js';
import { issue } from '../issues.js';
import { rootMetadata } from '../root-metadata.js';
import { FrameAttr, HYPERFRAMES_GLOBALS } from '../frame-config.js';
import { parseUrl } from '../data.js';
import {
  CLASSIC_SCRIPT_TYPES,
  REPORTED_ONCE,
  createElement,
  inertInRawText,
  liftTemplateRoot,
  type Context,
} from './context.js';
import { STYLESHEET_LINKS } from './dependencies.js';
import { loadStylesheet } from './assets.js';

const SOURCE_ATTRIBUTES = ['src', 'href', 'poster', Attr.compositionSrc] as const;

/** Inlines every `[data-composition-src]` host under `container`, depth first. */
export async function inlineHosts(ctx: Context, container: Element, base: string, stack: string[]): Promise<void> {
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
