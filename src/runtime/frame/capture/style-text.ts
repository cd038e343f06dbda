/**
 * The document's styles as text for a foreignObject image: every stylesheet's rules (adopted ones too, `@import`s
 * expanded), with each `url()` made absolute against its sheet and passed through `url` (which inlines it). In
 * the image the `<svg>` is the root: `:root` rules are given to its `<html>` instead.
 */
export function styleText(url: (absolute: string) => string): string {
  const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets ?? [])];
  return sheets.map((sheet) => sheetText(sheet, url)).join('\n');
}

function sheetText(sheet: CSSStyleSheet, url: (absolute: string) => string): string {
  if (sheet.disabled) return '';
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    // Another origin's sheet without CORS: the frame cannot read it (the compiler inlines the project's).
    return '';
  }
  const base = sheet.href ?? document.baseURI;
  const text = [...rules]
    .map((rule) =>
      rule instanceof CSSImportRule && rule.styleSheet
        ? sheetText(rule.styleSheet, url)
        : rewriteCss(rule.cssText, base, url),
    )
    .join('\n');
  const media = sheet.media?.mediaText;
  return media && media !== 'all' ? `@media ${media} {\n${text}\n}` : text;
}

/** Each `url(…)` of `css` made absolute against `base`, then mapped; `:root` selectors aimed at `<html>`. */
export function rewriteCss(css: string, base: string, url: (absolute: string) => string): string {
  return css
    .replace(/url\(\s*(["']?)(.*?)\1\s*\)/g, (whole, _quote, found: string) => {
      try {
        return `url("${url(new URL(found, base).href)}")`;
      } catch {
        return whole;
      }
    })
    .replace(/:root\b/g, 'html');
}
