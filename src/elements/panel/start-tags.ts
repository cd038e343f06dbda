/**
 * A minimal scanner of start tags in HTML source, enough to find one element's tag and the spans of its attributes
 * without re-serialising the document (which would rewrite the author's markup). Comments, doctypes, processing
 * instructions, end tags and the contents of raw-text elements are skipped, as the HTML tokenizer does. Its answer
 * is checked by the real parser afterwards (declarations-html.ts): a markup it misreads is refused, never corrupted.
 */

export interface AttributeSpan {
  /** Lowercased, as the parser stores it. */
  readonly name: string;
  /** Where the whole attribute (`name="value"`) starts and ends. */
  readonly start: number;
  readonly end: number;
}

export interface StartTag {
  readonly name: string;
  readonly attributes: readonly AttributeSpan[];
  /** Where the tag's closing `>` (or `/>`) is: new attributes go before it. */
  readonly close: number;
}

/** Elements whose contents are text up to their end tag (scripting off, as in `DOMParser`: `noscript` is markup). */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title', 'plaintext']);
const SPACE = /[\t\n\f\r ]/;
const NAME_END = /[\t\n\f\r />]/;

/** Every start tag of `html`, in source order, including those inside `<template>`. */
export function* startTags(html: string): Generator<StartTag> {
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) return;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      // `<!-->` and `<!--->` are (empty) comments too.
      at = /^<!---?>/.test(html.slice(open, open + 6)) ? html.indexOf('>', open) + 1 : end < 0 ? html.length : end + 3;
      continue;
    }
    const next = html[open + 1] ?? '';
    if (next === '!' || next === '?' || next === '/') {
      const end = html.indexOf('>', open);
      at = end < 0 ? html.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(next)) {
      at = open + 1;
      continue;
    }
    const tag = readTag(html, open + 1);
    yield tag;
    at = tag.close + 1;
    if (RAW_TEXT.has(tag.name)) {
      if (tag.name === 'plaintext') return;
      const end = html.toLowerCase().indexOf(`</${tag.name}`, at);
      at = end < 0 ? html.length : end;
    }
  }
}

function readTag(html: string, from: number): StartTag {
  let at = from;
  while (at < html.length && !NAME_END.test(html[at]!)) at++;
  const name = html.slice(from, at).toLowerCase();
  const attributes: AttributeSpan[] = [];
  for (;;) {
    while (at < html.length && (SPACE.test(html[at]!) || html[at] === '/')) {
      if (html[at] === '/' && html[at + 1] === '>') return { name, attributes, close: at };
      at++;
    }
    if (at >= html.length || html[at] === '>') return { name, attributes, close: Math.min(at, html.length) };
    const start = at;
    // The first character may be `=` (the tokenizer takes it into the name).
    at++;
    while (at < html.length && !/[\t\n\f\r />=]/.test(html[at]!)) at++;
    const attributeName = html.slice(start, at).toLowerCase();
    let cursor = at;
    while (cursor < html.length && SPACE.test(html[cursor]!)) cursor++;
    if (html[cursor] === '=') {
      cursor++;
      while (cursor < html.length && SPACE.test(html[cursor]!)) cursor++;
      const quote = html[cursor];
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, cursor + 1);
        at = end < 0 ? html.length : end + 1;
      } else {
        at = cursor;
        while (at < html.length && !SPACE.test(html[at]!) && html[at] !== '>') at++;
      }
    }
    attributes.push({ name: attributeName, start, end: at });
  }
}
