/**
 * Where a text stops being JSON, found by reading it: for engines whose JSON.parse errors name no position
 * (JavaScriptCore: "JSON Parse error: Expected '}'"). The offset is that of the first character no JSON text could
 * have there, or the text's length when it ends too early, as V8's "at position N" counts.
 */

const WHITESPACE = /[ \t\n\r]*/y;
const DIGITS = /\d*/y;
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;
const ESCAPE = /^["\\/bfnrt]$/;
const HEX = /^[0-9a-fA-F]$/;
const LITERALS = ['true', 'false', 'null'] as const;
/** Deeper than this, the scan gives up (the engine already refused the text; its reason stands alone). */
const MAX_DEPTH = 512;

class Stop {
  constructor(readonly offset: number) {}
}

/** The offset where `text` stops being JSON, or `undefined` when it is JSON or too deep to scan. */
export function jsonStopOffset(text: string): number | undefined {
  let at = 0;
  const stop = (): never => {
    throw new Stop(at);
  };
  const match = (pattern: RegExp): string => {
    pattern.lastIndex = at;
    const found = pattern.exec(text)?.[0] ?? '';
    at += found.length;
    return found;
  };
  const skipSpace = () => void match(WHITESPACE);
  const expect = (char: string) => (text[at] === char ? at++ : stop());
  const digits = () => (match(DIGITS) === '' ? stop() : undefined);
  const number = () => {
    if (text[at] === '-') at++;
    if (text[at] === '0') at++;
    else digits();
    if (text[at] === '.') {
      at++;
      digits();
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at++;
      if (text[at] === '+' || text[at] === '-') at++;
      digits();
    }
  };
  const string = () => {
    expect('"');
    for (;;) {
      match(PLAIN_CHARS);
      if (text[at] !== '\\') break;
      at++;
      if (text[at] === 'u') {
        at++;
        for (let k = 0; k < 4; k++, at++) if (!HEX.test(text[at] ?? '')) stop();
      } else if (ESCAPE.test(text[at] ?? '')) at++;
      else stop();
    }
    expect('"');
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Stop(-1);
    skipSpace();
    const char = text[at];
    if (char === '{') return members(depth);
    if (char === '[') return elements(depth);
    if (char === '"') return string();
    const literal = LITERALS.find((word) => word[0] === char);
    if (literal) {
      for (const letter of literal) text[at] === letter ? at++ : stop();
      return;
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    stop();
  };
  const members = (depth: number) => {
    expect('{');
    skipSpace();
    if (text[at] === '}') return void at++;
    for (;;) {
      skipSpace();
      string();
      skipSpace();
      expect(':');
      value(depth + 1);
      skipSpace();
      if (text[at] === '}') return void at++;
      expect(',');
    }
  };
  const elements = (depth: number) => {
    expect('[');
    skipSpace();
    if (text[at] === ']') return void at++;
    for (;;) {
      value(depth + 1);
      skipSpace();
      if (text[at] === ']') return void at++;
      expect(',');
    }
  };
  try {
    value(0);
    skipSpace();
    if (at < text.length) stop();
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return error.offset < 0 ? undefined : error.offset;
  }
}
