/**
 * Linear scanners for the two things the compiler finds in stylesheet text: `url()` tokens and `@font-face`
 * blocks. A composition's CSS is untrusted and up to the file size limit (4 MiB), and the lazy regexes these
 * replace (`url\(\s*(["']?)(.*?)\1\s*\)`, `@font-face\s*{[^}]*}`) rescan the rest of the text from every
 * unclosed opening: quadratic, hours of blocked main thread for 4 MiB of `url(`. Every search here moves forward
 * only, so a scan is one pass over the text.
 */

/** A stretch of the text: `[start, end)`. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** One `url(…)` token: its range in the text and the URL it names (quotes and blanks around it removed). */
export interface CssUrlToken extends TextRange {
  readonly url: string;
}

/**
 * `text.indexOf(char, from)` for calls whose `from` never decreases: the last answer is reused while it is still
 * ahead, and once nothing is left nothing ever will be, so all calls together read the text once.
 */
class ForwardSearch {
  #found = -2;
  constructor(
    private readonly text: string,
    private readonly char: string,
  ) {}

  from(position: number): number {
    if (this.#found !== -1 && this.#found < position) this.#found = this.text.indexOf(this.char, position);
    return this.#found;
  }
}

const isBlank = (char: string | undefined) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';
/** Characters that continue an identifier: `myurl(` is another function, not `url(`. */
const isNameChar = (char: string | undefined) => char !== undefined && /[\w-]|[^\x00-\x7f]/.test(char);

function skipBlanks(text: string, position: number): number {
  while (isBlank(text[position])) position += 1;
  return position;
}

/**
 * Every `url(…)` token of `css` in order (the function name in any case, as CSS reads it). The URL may be quoted
 * (`url("a)b")`); an unquoted one ends at the first `)`.
 */
export function cssUrlTokens(css: string): CssUrlToken[] {
  const tokens: CssUrlToken[] = [];
  const close = new ForwardSearch(css, ')');
  const quotes = { '"': new ForwardSearch(css, '"'), "'": new ForwardSearch(css, "'") };
  let cursor = 0;
  for (let open = css.indexOf('(', cursor); open !== -1; open = css.indexOf('(', cursor)) {
    const start = open - 3;
    cursor = open + 1;
    if (start < 0 || css.slice(start, open).toLowerCase() !== 'url' || isNameChar(css[start - 1])) continue;
    const inside = skipBlanks(css, open + 1);
    const quote = css[inside];
    if (quote === '"' || quote === "'") {
      const closingQuote = quotes[quote].from(inside + 1);
      const after = closingQuote === -1 ? -1 : skipBlanks(css, closingQuote + 1);
      if (after !== -1 && css[after] === ')') {
        tokens.push({ start, end: after + 1, url: css.slice(inside + 1, closingQuote) });
        cursor = after + 1;
        continue;
      }
    }
    const end = close.from(inside);
    // No `)` is left: no later `url(` can be closed either.
    if (end === -1) break;
    let last = end;
    while (last > inside && isBlank(css[last - 1])) last -= 1;
    tokens.push({ start, end: end + 1, url: css.slice(inside, last) });
    cursor = end + 1;
  }
  return tokens;
}

const FONT_FACE = '@font-face';

/** The range of every `@font-face { … }` block of `css` (any case), braces included. */
export function fontFaceBlocks(css: string): TextRange[] {
  const blocks: TextRange[] = [];
  const close = new ForwardSearch(css, '}');
  let cursor = 0;
  for (let at = css.indexOf('@', cursor); at !== -1; at = css.indexOf('@', cursor)) {
    cursor = at + 1;
    if (css.slice(at, at + FONT_FACE.length).toLowerCase() !== FONT_FACE) continue;
    const brace = skipBlanks(css, at + FONT_FACE.length);
    if (css[brace] !== '{') continue;
    const end = close.from(brace);
    if (end === -1) break;
    blocks.push({ start: at, end: end + 1 });
    cursor = end + 1;
  }
  return blocks;
}

/** `text` with each range replaced by what `replace` returns for it (`undefined` keeps it); ranges in order. */
export function replaceRanges<Range extends TextRange>(
  text: string,
  ranges: readonly Range[],
  replace: (range: Range) => string | undefined,
): string {
  const parts: string[] = [];
  let copied = 0;
  for (const range of ranges) {
    const replacement = replace(range);
    if (replacement === undefined) continue;
    parts.push(text.slice(copied, range.start), replacement);
    copied = range.end;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}
