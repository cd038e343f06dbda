/**
 * Where a JSON text stops parsing, as engines say it in their own words: V8 "at position 94" (newer ones add
 * "(line 3 column 5)"), SpiderMonkey "at line 3 column 5 of the JSON data", JavaScriptCore nothing (the text is then read for it:
 * json-stop.ts). Messages then name a line and column a person can find, and lint maps them into the file.
 */
import { jsonStopOffset } from './json-stop.js';

/** A 1-based line and column. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** The line and column of character `offset` of `text` (lines end at `\n`, `\r\n` or `\r`). */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let at = 0; at < offset && at < text.length; at++) {
    const char = text[at];
    if (char === '\n' || (char === '\r' && text[at + 1] !== '\n')) {
      line++;
      start = at + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The offset of a 1-based line and column in `text`. */
function offsetOf(text: string, { line, column }: TextPosition): number {
  let at = 0;
  for (let current = 1; current < line; current++) {
    const next = text.slice(at).search(/\r\n|\n|\r/);
    if (next < 0) return text.length;
    at += next + (text.startsWith('\r\n', at + next) ? 2 : 1);
  }
  return Math.min(text.length, at + column - 1);
}

export interface JsonFailure {
  /** The engine's reason without its own position wording. */
  readonly reason: string;
  /** Where in the text it stopped, as the engine says or the text shows. */
  readonly offset: number | undefined;
}

/** Why `text` is not JSON, and where; `undefined` when it is JSON. */
export function jsonFailure(text: string): JsonFailure | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return readFailure(text, error instanceof Error ? error.message : String(error));
  }
}

/** `message`, an engine's JSON.parse error about `text`, read for its reason and offset. */
export function readFailure(text: string, message: string): JsonFailure {
  const at = /\s*\bat position (\d+)(?:\s*\(line \d+ column \d+\))?/.exec(message);
  if (at) return { reason: message.replace(at[0], '').replace(/ in JSON$/, ''), offset: Number(at[1]) };
  const lineColumn = /\s*at line (\d+) column (\d+) of the JSON data/.exec(message);
  if (lineColumn) {
    const position = { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
    return {
      reason: message.replace(lineColumn[0], '').replace(/^JSON\.parse: /, ''),
      offset: offsetOf(text, position),
    };
  }
  return { reason: message.replace(/^JSON Parse error: /, ''), offset: jsonStopOffset(text) };
}
