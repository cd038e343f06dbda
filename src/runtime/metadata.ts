import { Attr } from './constants.js';
import { parseVariableDeclarations, type VariableDeclaration } from './declarations.js';
import { declarationRoot, parseHtml } from './html.js';
import type { Issue } from './issues.js';
import { rootMetadata } from './root-metadata.js';
import type { DurationSource } from './timeline-duration.js';

export { MetadataIssueCode } from './root-metadata.js';

export interface CompositionMetadata {
  /** `data-composition-id` of the root composition. */
  readonly id: string | undefined;
  readonly width: number | undefined;
  readonly height: number | undefined;
  /**
   * Root `data-duration` in seconds, as authored (scripts cannot change it); `undefined` when the duration comes
   * from the registered timeline, which only the frame measures (see `durationSource`).
   */
  readonly duration: number | undefined;
  /**
   * `attribute` (the root's `data-duration`), `timeline` (no `data-duration`: the length of the timeline a script
   * registers as `window.__timelines[id]`, measured when the composition gets ready), or `undefined` (neither).
   */
  readonly durationSource: DurationSource | undefined;
  readonly variables: VariableDeclaration[];
  readonly issues: Issue[];
}

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
