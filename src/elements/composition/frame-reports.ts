/**
 * What the element takes from its frame's reports. The frame runs the composition's scripts, which can rewrite
 * any message it sends (by patching `MessagePort.prototype.postMessage`), so the host believes nothing it already
 * knows from its own compile (duration, size, frame rate, declarations) and bounds everything else — including a
 * duration no compile can know, the length of the timeline a root without `data-duration` registers.
 */
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import type { CompositionMetadata } from '../../runtime/metadata.js';
import type { ReadyMessage } from '../../runtime/protocol/messages.js';
import { MetadataIssueCode, timelineMissingIssue } from '../../runtime/root-metadata.js';
import { DurationSource, MAX_TIMELINE_SECONDS, TIMELINE_SETTLE_MS } from '../../runtime/timeline-duration.js';
import { MAX_LIST_ITEMS } from '../../runtime/protocol/host.js';
import { SCRIPT_READS } from '../../runtime/protocol/messages.js';
import { seekTarget } from '../../runtime/seek-target.js';
import { valueBoundsProblem } from '../../runtime/value-bounds.js';

/** The frame grid the element compiles with (the compiler's default, said here so both ends agree). */
export const PREVIEW_FPS = 30;
/** The frame's size when the composition names none (the compiler's default too). */
const DEFAULT_SIZE = { width: 1920, height: 1080 };
/** The element's box follows the composition's aspect ratio within this (a 1 × 16384 root must not make it huge). */
const MAX_ASPECT = 16;
const MAX_TEXT = 1000;
const MAX_PATH = 16;

/** Timing and size of a compiled composition: the frame gets them from the same compile. */
export interface Stage {
  readonly duration: number;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
}

export function stageOf(metadata: Partial<Pick<CompositionMetadata, 'duration' | 'width' | 'height'>>): Stage {
  return {
    duration: metadata.duration ?? 0,
    width: metadata.width ?? DEFAULT_SIZE.width,
    height: metadata.height ?? DEFAULT_SIZE.height,
    fps: PREVIEW_FPS,
  };
}

/**
 * `known` with the duration its frame measured, when that comes from the registered timeline (which no compile can
 * know): the one report of the frame the host takes as its duration, and only within (0, MAX_TIMELINE_SECONDS].
 * With an `issue` saying why (the frame's own, bounded, or a missing timeline) when there is no such duration.
 */
export function settledMetadata(
  known: CompositionMetadata,
  ready: Pick<ReadyMessage, 'duration' | 'issues'>,
): { metadata: CompositionMetadata; issue?: Issue } {
  if (known.durationSource !== DurationSource.timeline) return { metadata: known };
  if (ready.duration > 0 && ready.duration <= MAX_TIMELINE_SECONDS)
    return { metadata: { ...known, duration: ready.duration } };
  const codes: string[] = [MetadataIssueCode.durationMissing, MetadataIssueCode.timelineDurationInvalid];
  const reported = trustedIssues(ready.issues).find((found) => codes.includes(found.code));
  return { metadata: known, issue: reported ?? timelineMissingIssue(known.id ?? '', TIMELINE_SETTLE_MS) };
}

/** A reported time inside the composition. */
export const clampTime = (seconds: number, stage: Stage) => Math.min(Math.max(seconds, 0), stage.duration);

/** Where a seek to `seconds` lands on `stage`: the frame's own rule (`seekTarget`). */
export const landingTime = (seconds: number, stage: Stage) => seekTarget(seconds, stage.duration, stage.fps);

/** The CSS `aspect-ratio` of the element's box. */
export function aspectRatio({ width, height }: Stage): string {
  const ratio = Math.min(Math.max(width / height, 1 / MAX_ASPECT), MAX_ASPECT);
  return `${ratio}`;
}

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** Reported issues, at most {@link MAX_LIST_ITEMS}, with bounded texts and paths of strings and numbers. */
export function trustedIssues(issues: readonly Issue[]): Issue[] {
  // `slice` first: a sparse list is never walked past the items the host reads.
  return issues
    .slice(0, MAX_LIST_ITEMS)
    .filter(Boolean)
    .map(({ code, severity, message, path }) => ({
      code: clip(code),
      severity,
      message: clip(message),
      path: path
        .slice(0, MAX_PATH)
        .filter((part) => typeof part === 'string' || typeof part === 'number')
        .map((part) => (typeof part === 'string' ? clip(part) : part)),
    }));
}

/**
 * The reported values of variables the host knows of (declared, or given by the host: undeclared overrides reach
 * top-level scripts too), each within the value bounds; nothing else.
 */
export function trustedValues(
  values: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const trusted: Record<string, unknown> = {};
  for (const id of [...declarations.map((declaration) => declaration.id), ...Object.keys(given)]) {
    if (Object.hasOwn(values, id) && valueBoundsProblem(values[id]) === undefined) trusted[id] = values[id];
  }
  return trusted;
}

/** An `error` message's texts, bounded. */
export const trustedError = ({ code, message }: { code: string; message: string }) => ({
  code: clip(code),
  message: clip(message),
});

/**
 * Adds the reported ids scripts read to `known`, keeping it within {@link SCRIPT_READS} (ids of the allowed length;
 * no more than `maxIds` in all, whatever the frame sent since). True when `known` grew.
 */
export function addTrustedReads(known: Set<string>, ids: readonly string[]): boolean {
  const before = known.size;
  // `slice` first: a sparse list is never walked past the items the host reads.
  for (const id of ids.slice(0, SCRIPT_READS.maxIds)) {
    if (known.size >= SCRIPT_READS.maxIds) break;
    if (typeof id === 'string' && id.length > 0 && id.length <= SCRIPT_READS.maxIdLength) known.add(id);
  }
  return known.size > before;
}
