import { Attr } from './constants.js';
import { compositionRoot } from './html.js';
import { issue, type Issue } from './issues.js';
import type { VariableDeclaration } from './declarations.js';
import {
  DurationSource,
  durationFromTimelineIssue,
  mayRegisterTimeline,
  TimelineDurationCode,
} from './timeline-duration.js';

/** What a composition says of itself: `extractCompositionMetadata` reads it; `rootMetadata` all but `variables`. */
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

export const MetadataIssueCode = {
  rootAttributeInvalid: 'root_attribute_invalid',
  /**
   * A composition's root (not a `<template>` sub-composition's) has no positive `data-duration` and no timeline to
   * take it from (no script that may register one, or none registered by the time it got ready): it would play for
   * 0 s. The renderer refuses such an entry with this same code.
   */
  durationMissing: 'composition_duration_missing',
  /** No root `data-duration`, but a script may register the root's timeline: its length is the duration (a warning). */
  durationFromTimeline: TimelineDurationCode.fromTimeline,
  /**
   * The timeline a root without `data-duration` registered is empty, repeats forever or is too long: reported by the
   * frame runtime when it gets ready (an `error` event in the element), and by the renderer.
   */
  timelineDurationInvalid: TimelineDurationCode.invalid,
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

/**
 * What an entry without a root `data-duration` (attribute text `got`, if any) is told: with none at all but a
 * script that may register its timeline, that the timeline's length will be its duration (a warning); otherwise
 * `composition_duration_missing`.
 */
export function entryDurationIssue(doc: Document, got: string | undefined): Issue {
  if (got === undefined && mayRegisterTimeline(doc))
    return durationFromTimelineIssue(compositionRoot(doc)?.getAttribute(Attr.compositionId) ?? '');
  return durationMissingIssue(got);
}

/** The issue of a root without `data-duration` whose scripts registered no timeline by the time it got ready. */
export function timelineMissingIssue(id: string, waitedMs: number): Issue {
  return issue(
    MetadataIssueCode.durationMissing,
    [Attr.duration],
    `the root has no "${Attr.duration}" and no timeline was registered as window.__timelines["${id}"] within ${waitedMs / 1000} s of loading`,
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

/** The `data-duration` text of the root (or `<html>`), if any. */
export function durationText(doc: Document): string | undefined {
  const element = [compositionRoot(doc), doc.documentElement].find((candidate) =>
    candidate?.hasAttribute(Attr.duration),
  );
  return element?.getAttribute(Attr.duration)?.trim();
}

/**
 * The root's duration and where it comes from. A root in the document is a composition that plays on its own:
 * without a positive duration it is `composition_duration_missing`, unless it has no `data-duration` at all and a
 * script may register its timeline (see timeline-duration.ts). A `<template>` root is a sub-composition, which may
 * last as long as its host.
 */
function readDuration(
  root: Element | undefined,
  doc: Document,
  issues: Issue[],
): { duration: number | undefined; durationSource: DurationSource | undefined } {
  const sources = [root, doc.documentElement ?? undefined];
  const inTemplate = !root || !inDocument(root, doc);
  const found: Issue[] = [];
  const duration = readPositive(sources, Attr.duration, found, inTemplate ? undefined : durationMissingIssue);
  issues.push(...found);
  if (duration !== undefined) return { duration, durationSource: DurationSource.attribute };
  const got = durationText(doc);
  if (!inTemplate && found.length === 0) issues.push(entryDurationIssue(doc, got));
  return {
    duration,
    durationSource: got === undefined && mayRegisterTimeline(doc) ? DurationSource.timeline : undefined,
  };
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
    ...readDuration(root, doc, issues),
    variables: [],
    issues,
  };
}
