import { Attr } from './constants.js';
import { compositionRoot } from './html.js';
import { issue, type Issue } from './issues.js';
import type { CompositionMetadata } from './metadata.js';

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
 * A composition's id, size and duration (and problems with them), read from its root like
 * `extractCompositionMetadata`, without parsing the variable declarations: `variables` is empty. `<fx-composition>`
 * compiles with this reader, so its bundle carries no declaration parser; its frame parses the declarations anyway
 * and reports them when it is ready.
 */
export function rootMetadata(doc: Document): CompositionMetadata {
  const issues: Issue[] = [];
  const root = compositionRoot(doc);
  const sources = [root, doc.documentElement ?? undefined];
  return {
    id: root?.getAttribute(Attr.compositionId) ?? undefined,
    width: readPositive(sources, Attr.width, issues),
    height: readPositive(sources, Attr.height, issues),
    duration: readPositive(sources, Attr.duration, issues),
    variables: [],
    issues,
  };
}
