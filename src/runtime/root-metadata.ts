import { Attr } from './constants.js';
import { compositionRoot } from './html.js';
import { issue, type Issue } from './issues.js';
import type { CompositionMetadata } from './metadata.js';

export const MetadataIssueCode = {
  rootAttributeInvalid: 'root_attribute_invalid',
  /**
   * A composition's root (not a `<template>` sub-composition's) has no positive `data-duration`: it would play for
   * 0 s. The renderer refuses such an entry with this same code.
   */
  durationMissing: 'composition_duration_missing',
} as const;

/** The issue of a composition root without a positive `data-duration`; `got` is the attribute's text, if any. */
export function durationMissingIssue(got: string | undefined): Issue {
  const found = got === undefined ? 'it has none' : `got "${got}"`;
  return issue(
    MetadataIssueCode.durationMissing,
    [Attr.duration],
    `the composition's root needs a positive "${Attr.duration}" in seconds; ${found}`,
  );
}

/** Reads a positive finite number attribute; records an issue (`invalid` builds it) when present but malformed. */
function readPositive(
  elements: (Element | undefined)[],
  name: string,
  issues: Issue[],
  invalid: (text: string) => Issue = attributeInvalid(name),
): number | undefined {
  const element = elements.find((candidate) => candidate?.hasAttribute(name));
  if (!element) return undefined;
  const text = element.getAttribute(name)!.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value <= 0) {
    issues.push(invalid(text));
    return undefined;
  }
  return value;
}

const attributeInvalid = (name: string) => (text: string) =>
  issue(MetadataIssueCode.rootAttributeInvalid, [name], `"${name}" must be a positive number, got "${text}"`);

/** True when `element` sits in the document itself, not inside a `<template>`'s content. */
function inDocument(element: Element, doc: Document): boolean {
  let node: Node = element;
  while (node.parentNode) node = node.parentNode;
  return node === doc;
}

/**
 * The root's duration. A root in the document is a composition that plays on its own: without a positive duration
 * it is `composition_duration_missing`. A `<template>` root is a sub-composition, which may last as long as its host.
 */
function readDuration(root: Element | undefined, doc: Document, issues: Issue[]): number | undefined {
  const sources = [root, doc.documentElement ?? undefined];
  if (!root || !inDocument(root, doc)) return readPositive(sources, Attr.duration, issues);
  const duration = readPositive(sources, Attr.duration, issues, durationMissingIssue);
  if (duration === undefined && !issues.some((found) => found.code === MetadataIssueCode.durationMissing))
    issues.push(durationMissingIssue(undefined));
  return duration;
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
    duration: readDuration(root, doc, issues),
    variables: [],
    issues,
  };
}
