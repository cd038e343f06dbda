import { Attr } from './constants.js';
import { parseVariableDeclarations, type VariableDeclaration } from './declarations.js';
import { compositionRoot, declarationRoot, parseHtml } from './html.js';
import { issue, type Issue } from './issues.js';

export interface CompositionMetadata {
  /** `data-composition-id` of the root composition. */
  readonly id: string | undefined;
  readonly width: number | undefined;
  readonly height: number | undefined;
  /** Root `data-duration` in seconds, as authored (scripts cannot change it). */
  readonly duration: number | undefined;
  readonly variables: VariableDeclaration[];
  readonly issues: Issue[];
}

export const MetadataIssueCode = {
  rootAttributeInvalid: 'root_attribute_invalid',
} as const;

/** Reads a positive finite number attribute; records an issue when present but malformed. */
function readPositive(elements: (Element | undefined)[], name: string, issues: Issue[]): number | undefined {
  const element = elements.find((candidate) => candidate?.hasAttribute(name));
  if (!element) return undefined;
  const text = element.getAttribute(name)!.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value <= 0) {
    issues.push(issue(MetadataIssueCode.rootAttributeInvalid, [name], `"${name}" must be a positive number, got "${text}"`));
    return undefined;
  }
  return value;
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
  const issues: Issue[] = [];
  const root = compositionRoot(doc);
  const declarations = declarationRoot(doc);
  const sources = [root, doc.documentElement ?? undefined];
  const parsed = parseVariableDeclarations(declarations?.getAttribute(Attr.compositionVariables), [Attr.compositionVariables]);
  issues.push(...parsed.issues);
  return {
    id: root?.getAttribute(Attr.compositionId) ?? undefined,
    width: readPositive(sources, Attr.width, issues),
    height: readPositive(sources, Attr.height, issues),
    duration: readPositive(sources, Attr.duration, issues),
    variables: parsed.declarations,
    issues,
  };
}
