import { Attr } from './constants.js';
import { parseVariableDeclarations } from './declarations.js';
import { declarationRoot, parseHtml } from './html.js';
import { rootMetadata, type CompositionMetadata } from './root-metadata.js';

export { MetadataIssueCode } from './root-metadata.js';
export type { CompositionMetadata } from './root-metadata.js';

/**
 * Reads a composition's id, size, duration and variable declarations from its HTML without rendering it.
 * Works on a full document or on a fragment/template sub-composition, in the browser and in Node.
 *
 * @example
 * const { width, height, variables } = extractCompositionMetadata(await (await fetch('index.html')).text());
 */
export function extractCompositionMetadata(html: string): CompositionMetadata {
  return metadataOf(parseHtml(html));
}

/** {@link extractCompositionMetadata} over an already-parsed document. */
export function metadataOf(doc: Document): CompositionMetadata {
  const parsed = parseVariableDeclarations(declarationRoot(doc)?.getAttribute(Attr.compositionVariables), [
    Attr.compositionVariables,
  ]);
  const root = rootMetadata(doc);
  return { ...root, variables: parsed.declarations, issues: [...parsed.issues, ...root.issues] };
}
