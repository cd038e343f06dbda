/**
 * Stylesheet handling for the compiler: scoping a sub-composition's styles to its instance, resolving `url()`
 * against the file that wrote them, and inlining font files. Uses the browser's CSS parser (CSSOM), so the
 * compiler runs in a browser (the preview's page, or the renderer's Chromium).
 */
import { Attr } from '../constants.js';
import { parseUrl } from '../data.js';
import { FrameAttr } from '../frame-config.js';
import { cssUrlTokens, fontFaceBlocks, replaceRanges } from './css-scan.js';

// At-rules that cannot live inside @scope; they stay global.
const GLOBAL_RULES = new Set([
  'CSSFontFaceRule',
  'CSSKeyframesRule',
  'CSSPropertyRule',
  'CSSImportRule',
  'CSSLayerStatementRule',
  'CSSCounterStyleRule',
  'CSSFontFeatureValuesRule',
  'CSSPageRule',
  'CSSNamespaceRule',
]);

/** Rewrites every relative `url()` in `css` to an absolute URL against `base`. */
export function absolutizeCssUrls(css: string, base: string): string {
  return replaceRanges(css, cssUrlTokens(css), ({ url: raw }) => {
    if (raw === '' || raw.startsWith('data:') || raw.startsWith('#')) return undefined;
    const url = parseUrl(raw, base);
    return url ? `url(${JSON.stringify(url.href)})` : undefined;
  });
}

/** `css` parsed by the browser, or `undefined` when it cannot be. */
export function parseSheet(css: string): CSSStyleSheet | undefined {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return undefined;
  }
}

/** Where an instance's scope stops: inside a nested instance (its host stays stylable, like any element). */
const NESTED_INSTANCE_CONTENT = `[${FrameAttr.instance}] > *`;

/**
 * Scopes a sub-composition's stylesheet to one instance: style rules go inside
 * `@scope (<selector>) to (<nested instance content>)`, with `:root`, `html` and `body` meaning the instance root;
 * @font-face, @keyframes and other global rules stay global.
 */
export function scopeCss(css: string, scopeSelector: string, root: ScopeRoot = {}): string {
  const sheet = parseSheet(css);
  return sheet ? scopeSheet(sheet, scopeSelector, root) : '';
}

/**
 * {@link scopeCss} over all stylesheets of one instance. `isolate` sees every parsed sheet first (to rename their
 * document-wide names together, compile/css-names.ts) and returns what to do to each scoped text.
 */
export function scopeInstanceCss(
  texts: readonly string[],
  scopeSelector: string,
  root: ScopeRoot,
  isolate?: (sheets: CSSStyleSheet[]) => (css: string) => string,
): string {
  const sheets = texts.map(parseSheet).filter((sheet): sheet is CSSStyleSheet => sheet !== undefined);
  const finish = isolate?.(sheets) ?? ((css: string) => css);
  return sheets
    .map((sheet) => finish(scopeSheet(sheet, scopeSelector, root)))
    .filter(Boolean)
    .join('\n');
}

function scopeSheet(sheet: CSSStyleSheet, scopeSelector: string, root: ScopeRoot): string {
  const rootPattern = rootSelectorPattern(root);
  const global: string[] = [];
  const scoped: string[] = [];
  for (const rule of sheet.cssRules) {
    if (GLOBAL_RULES.has(rule.constructor.name)) global.push(rule.cssText);
    else scoped.push(rewriteRootSelectors(rule, rootPattern).cssText);
  }
  const body =
    scoped.length > 0
      ? `${shareGuard(scopeSelector)}\n@scope (${scopeSelector}) to (${NESTED_INSTANCE_CONTENT}) {\n${scoped.join('\n')}\n}`
      : '';
  return [...global, body].filter(Boolean).join('\n');
}

/**
 * An empty rule on the scope root. Firefox (ESR 153) lets elements share one computed style when their parents
 * differ only in attributes named by an `@scope` root, so instance B's content took instance A's scoped rules; a
 * plain rule naming the root makes Firefox compare that attribute before sharing
 * (test/runtime/compile/css-scoping.test.ts).
 */
const shareGuard = (scopeSelector: string) => `:where(${scopeSelector}) {}`;

/** How a sub-composition's own styles may name its root element. */
export interface ScopeRoot {
  /** `data-composition-id` of the root: `[data-composition-id="card"] .title` is a common way to style a sub. */
  readonly compositionId?: string | undefined;
  /** `id` attribute of the root element. */
  readonly elementId?: string | undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches, at the start of a complex selector, whatever names the sub-composition's root: `:root`, `html`,
 * `body`, `[data-composition-id]` (with its own id) or `#rootId`. Inside `@scope` such a selector would look for a
 * descendant (selectors there are relative to the root), so these become `:scope`.
 */
function rootSelectorPattern(root: ScopeRoot): RegExp {
  const names = [':root', 'html', 'body', escapeRegExp(`[${Attr.compositionId}]`)];
  if (root.compositionId) names.push(escapeRegExp(`[${Attr.compositionId}="${root.compositionId}"]`));
  if (root.elementId) names.push(escapeRegExp(`#${CSS.escape(root.elementId)}`));
  // Only at the start of a complex selector (after `,` or `(` too); `html body` collapses to one `:scope`.
  const name = `(?:${names.join('|')})`;
  return new RegExp(`(^|,\\s*|\\(\\s*)${name}(?:\\s+${name})*(?=[\\s,.:#[>+~)]|$)`, 'g');
}

/** Rewrites selectors in place (style rules, and rules nested in @media, @supports, @layer or CSS nesting). */
function rewriteRootSelectors(rule: CSSRule, pattern: RegExp): CSSRule {
  if (rule instanceof CSSStyleRule) {
    const rewritten = rule.selectorText.replace(pattern, '$1:scope');
    if (rewritten !== rule.selectorText) rule.selectorText = rewritten;
  }
  const children = (rule as CSSGroupingRule).cssRules;
  if (children) for (const child of children) rewriteRootSelectors(child, pattern);
  return rule;
}

/**
 * Replaces font URLs inside @font-face rules with `data:` URLs fetched by `load`. A composition frame has an
 * opaque origin, so it could not load fonts served without CORS headers; the host can.
 */
export async function inlineFontFaces(
  css: string,
  load: (url: string) => Promise<string | undefined>,
): Promise<string> {
  const tokens = fontFaceBlocks(css).flatMap(({ start, end }) =>
    cssUrlTokens(css.slice(start, end)).map((token) => ({
      ...token,
      start: token.start + start,
      end: token.end + start,
    })),
  );
  // Each file once, however many faces name it.
  const loaded = new Map<string, string | undefined>();
  for (const { url } of tokens) {
    if (!url.startsWith('data:') && !loaded.has(url)) loaded.set(url, await load(url));
  }
  return replaceRanges(css, tokens, ({ url }) => {
    const data = loaded.get(url);
    return data === undefined ? undefined : `url(${JSON.stringify(data)})`;
  });
}
