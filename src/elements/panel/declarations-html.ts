/**
 * Writes declarations into a composition's HTML: the `data-composition-variables` attribute of the element that
 * carries them (as `declarationRoot` picks it) is replaced or added in the source text, leaving every other byte
 * as the author wrote it. The result is read back with the runtime's own parser and must give the same list.
 */
import { Attr } from '../../runtime/constants.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { FxError } from '../../runtime/errors.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import { FxVariablesPanelErrorCode } from './constants.js';
import { startTags, type StartTag } from './start-tags.js';

/** The attribute's text: one declaration per line, single-quoted so the JSON's double quotes stay readable. */
export function declarationsAttribute(declarations: readonly VariableDeclaration[]): string {
  const json =
    declarations.length === 0
      ? '[]'
      : `[\n  ${declarations.map((declaration) => JSON.stringify(declaration)).join(',\n  ')}\n]`;
  return `${Attr.compositionVariables}='${json.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}'`;
}

/** The start tag `declarationRoot` would pick: `<html>` carrying the attribute, else the composition root, else `<html>`. */
function rootTag(html: string): StartTag | undefined {
  let htmlTag: StartTag | undefined;
  let compositionTag: StartTag | undefined;
  for (const tag of startTags(html)) {
    const has = (name: string) => tag.attributes.some((attribute) => attribute.name === name);
    if (tag.name === 'html' && !htmlTag) {
      htmlTag = tag;
      if (has(Attr.compositionVariables)) return tag;
    }
    if (!compositionTag && has(Attr.compositionId)) compositionTag = tag;
  }
  return compositionTag ?? htmlTag;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `html` with `declarations` as its `data-composition-variables`. Throws `declaration_root_missing` when the markup
 * has no element to carry them, `declarations_rewrite_failed` when the result would not read back as written.
 */
export function writeDeclarations(html: string, declarations: readonly VariableDeclaration[]): string {
  const tag = rootTag(html);
  if (!tag)
    throw new FxError(
      FxVariablesPanelErrorCode.declarationRootMissing,
      `the composition has no <html> or [${Attr.compositionId}] element to carry "${Attr.compositionVariables}"`,
    );
  const attribute = declarationsAttribute(declarations);
  const existing = tag.attributes.find((span) => span.name === Attr.compositionVariables);
  const written = existing
    ? `${html.slice(0, existing.start)}${attribute}${html.slice(existing.end)}`
    : `${html.slice(0, tag.close)}${/[\t\n\f\r ]$/.test(html.slice(0, tag.close)) ? '' : ' '}${attribute}${html.slice(tag.close)}`;
  const read = extractCompositionMetadata(written).variables;
  if (!sameList(read, declarations)) {
    throw new FxError(
      FxVariablesPanelErrorCode.declarationsRewriteFailed,
      `the composition's markup could not take the new "${Attr.compositionVariables}": it read back as ${read.length} declaration(s), not ${declarations.length}`,
    );
  }
  return written;
}
