/**
 * Lint reads a file; the parser only sees an attribute's value. For a declaration list that is not JSON, this finds
 * where in the file it stopped: the line and column a person opens the file at, not "position 94" of an attribute.
 */
import { Attr } from './constants.js';
import { DeclarationIssueCode, type Issue } from './issues.js';
import { jsonFailure, positionAt, type TextPosition } from './json-position.js';

/** `data-composition-variables="…"` or `='…'` in markup, its raw value captured. */
const ATTRIBUTE = new RegExp(`\\s${Attr.compositionVariables}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'gi');
const ENTITY = /^&(?:#\d+|#x[\da-f]+|[a-z][\da-z]*);/i;

/** The raw index of decoded character `offset` of an attribute value (a character reference is one character). */
function rawIndex(raw: string, offset: number): number {
  let at = 0;
  for (let decoded = 0; decoded < offset && at < raw.length; decoded++)
    at += ENTITY.exec(raw.slice(at))?.[0].length ?? 1;
  return at;
}

const decode = (raw: string) =>
  raw.replace(/&(?:#(\d+)|#x([\da-f]+)|(quot|apos|amp|lt|gt));/gi, (entity, decimal, hex, name: string | undefined) => {
    if (decimal) return String.fromCodePoint(Number(decimal));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' }[name!.toLowerCase() as 'quot'] ?? entity;
  });

/** Where each declaration list of `html` that is not JSON stops parsing, in source order. */
function brokenLists(html: string): TextPosition[] {
  const found: TextPosition[] = [];
  for (const match of html.matchAll(ATTRIBUTE)) {
    const raw = match[1] ?? match[2] ?? '';
    const failure = jsonFailure(decode(raw));
    if (!failure || failure.offset === undefined) continue;
    const valueStart = match.index + match[0].length - raw.length - 1;
    found.push(positionAt(html, valueStart + rawIndex(raw, failure.offset)));
  }
  return found;
}

/**
 * `findings` with each `declaration_json_invalid` saying where in `html` it stopped ("at line 7, column 5"), in
 * the order both come (the document's). Findings it cannot place keep their message.
 */
export function placeDeclarationFailures(html: string, findings: readonly Issue[]): Issue[] {
  if (!findings.some((finding) => finding.code === DeclarationIssueCode.jsonInvalid)) return [...findings];
  const positions = brokenLists(html);
  let next = 0;
  return findings.map((finding) => {
    if (finding.code !== DeclarationIssueCode.jsonInvalid) return finding;
    const at = positions[next++];
    if (!at) return finding;
    const message = finding.message.replace(
      / at line \d+, column \d+ of [\w-]+:|:/,
      ` at line ${at.line}, column ${at.column}:`,
    );
    return { ...finding, message };
  });
}
