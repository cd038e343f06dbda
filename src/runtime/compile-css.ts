/**
 * Stylesheet handling for the compiler: scoping a sub-composition's styles to its instance, resolving `url()`
 * against the file that wrote them, and inlining font files. Uses the browser's CSS parser (CSSOM), so the
 * compiler runs in a browser (the preview's page, or the renderer's Chromium).
 */
import { FrameAttr } from './frame-config.js';

// At-rules that cannot live inside @scope; they stay global.
const GLOBAL_RULES = new Set(['CSSFontFaceRule', 'CSSKeyframesRule', 'CSSPropertyRule', 'CSSImportRule', 'CSSLayerStatementRule', 'CSSCounterStyleRule', 'CSSFontFeatureValuesRule', 'CSSPageRule', 'CSSNamespaceRule']);
const URL_TOKEN = /url\(\s*(["']?)(.*?)\1\s*\)/g;
const DOCUMENT_SELECTOR = /(^|[\s,>+~(])(?::root|html|body)(?=[\s,.:#[>+~{)]|$)/g;

/** Rewrites every relative `url()` in `css` to an absolute URL against `base`. */
export function absolutizeCssUrls(css: string, base: string): string {
  return css.replace(URL_TOKEN, (whole, _quote: string, raw: string) => {
    if (raw === '' || raw.startsWith('data:') || raw.startsWith('#')) return whole;
    try {
      return `url(${JSON.stringify(new URL(raw, base).href)})`;
    } catch {
      return whole;
    }
  });
}

function parseSheet(css: string): CSSStyleSheet | undefined {
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
export function scopeCss(css: string, scopeSelector: string): string {
  const sheet = parseSheet(css);
  if (!sheet) return '';
  const global: string[] = [];
  const scoped: string[] = [];
  for (const rule of sheet.cssRules) {
    if (GLOBAL_RULES.has(rule.constructor.name)) global.push(rule.cssText);
    else scoped.push(rule.cssText.replace(DOCUMENT_SELECTOR, '$1:scope'));
  }
  const body = scoped.length > 0 ? `@scope (${scopeSelector}) to (${NESTED_INSTANCE_CONTENT}) {\n${scoped.join('\n')}\n}` : '';
  return [...global, body].filter(Boolean).join('\n');
}

/**
 * Replaces font URLs inside @font-face rules with `data:` URLs fetched by `load`. A composition frame has an
 * opaque origin, so it could not load fonts served without CORS headers; the host can.
 */
export async function inlineFontFaces(css: string, load: (url: string) => Promise<string | undefined>): Promise<string> {
  const faces = [...css.matchAll(/@font-face\s*{[^}]*}/g)];
  let result = css;
  for (const [face] of faces) {
    let inlined = face;
    for (const match of face.matchAll(URL_TOKEN)) {
      const url = match[2]!;
      if (url.startsWith('data:')) continue;
      const data = await load(url);
      if (data !== undefined) inlined = inlined.replace(match[0], `url(${JSON.stringify(data)})`);
    }
    result = result.replace(face, inlined);
  }
  return result;
}
