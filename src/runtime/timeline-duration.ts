import { Attr } from './constants.js';
import { queryAllDeep } from './html.js';
import { issue, type Issue } from './issues.js';

/**
 * The one rule for a composition whose root has no `data-duration` (the HyperFrames convention): it lasts as long
 * as the timeline its scripts register in `window.__timelines[<root id>]`. An explicit root `data-duration` always
 * wins. Statically (lint, metadata, the service at submit) the length is unknown; the frame runtime measures it
 * with {@link timelineLength} once the composition is loaded, before it reports ready (see
 * {@link TIMELINE_SETTLE_MS}), and the preview and the renderer both take that measured length.
 */

/** Where a composition's duration comes from. */
export const DurationSource = {
  /** The root's `data-duration`, read before any script runs. */
  attribute: 'attribute',
  /** The length of the timeline registered under the root's id, measured in the frame when it gets ready. */
  timeline: 'timeline',
} as const;
export type DurationSource = (typeof DurationSource)[keyof typeof DurationSource];

export const TimelineDurationCode = {
  /** No root `data-duration`: the duration will be the registered timeline's length (a warning, for information). */
  fromTimeline: 'composition_duration_from_timeline',
  /** The registered timeline is empty, repeats forever, or is longer than {@link MAX_TIMELINE_SECONDS}. */
  invalid: 'timeline_duration_invalid',
} as const;

/**
 * The longest timeline a composition may take its duration from (a day: what a render may at most be asked to
 * last). GSAP reports a timeline that repeats forever as 1e10 s long; anything past this is refused, never played.
 */
export const MAX_TIMELINE_SECONDS = 86_400;
/** GSAP's length of a timeline that repeats forever (or holds something that does). */
const GSAP_FOREVER = 1e10;

/**
 * How long the runtime waits, once the page's `load` event fired (every classic script ran), for the root timeline
 * to be registered with a positive length by scripts that run later (async scripts, promises, timers). The
 * duration is settled when the runtime reports ready; a timeline that grows afterwards does not change it.
 */
export const TIMELINE_SETTLE_MS = 2000;

/** What the runtime needs to measure a GSAP-style timeline (duck-typed). */
interface MeasurableTimeline {
  duration?(): unknown;
  totalDuration?(): unknown;
  repeat?(): unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/** True for a registered value the runtime can measure: it has `duration()` or `totalDuration()`. */
export function isMeasurableTimeline(value: unknown): boolean {
  return isObject(value) && (typeof value.totalDuration === 'function' || typeof value.duration === 'function');
}

/** Calls `method` of `timeline` as a number (NaN when it throws or answers something else). */
function numberFrom(timeline: MeasurableTimeline, method: keyof MeasurableTimeline): number {
  try {
    const value = timeline[method]?.();
    return typeof value === 'number' ? value : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The length of a registered timeline in `seconds`: `totalDuration()` (repeats included, what a seek plays
 * through), else `duration()`; `NaN` when it answers no number. With an `issue` ({@link TimelineDurationCode.invalid})
 * when that is not positive, repeats forever, or is longer than {@link MAX_TIMELINE_SECONDS}. `undefined` when
 * `timeline` is nothing the runtime can measure (not registered yet).
 */
export function timelineLength(timeline: unknown, id: string): { seconds: number; issue?: Issue } | undefined {
  if (!isMeasurableTimeline(timeline)) return undefined;
  const measured = timeline as MeasurableTimeline;
  const seconds = numberFrom(measured, typeof measured.totalDuration === 'function' ? 'totalDuration' : 'duration');
  const invalid = (why: string) => ({ seconds, issue: timelineDurationInvalid(id, why) });
  if (numberFrom(measured, 'repeat') === -1 || seconds >= GSAP_FOREVER)
    return invalid('repeats forever (repeat: -1); make it finite or give the root a "data-duration"');
  if (!Number.isFinite(seconds)) return invalid(`reports a length that is not a finite number (${String(seconds)})`);
  if (seconds <= 0) return invalid('is empty (0 s long); add tweens to it or give the root a "data-duration"');
  if (seconds > MAX_TIMELINE_SECONDS)
    return invalid(`is ${seconds} s long, more than the ${MAX_TIMELINE_SECONDS} s a composition may last`);
  return { seconds };
}

export function timelineDurationInvalid(id: string, why: string): Issue {
  return issue(TimelineDurationCode.invalid, [Attr.duration], `the timeline registered as "${id}" ${why}`);
}

/** The finding of a root without `data-duration` whose scripts may register its timeline. */
export function durationFromTimelineIssue(id: string): Issue {
  return issue(
    TimelineDurationCode.fromTimeline,
    [Attr.duration],
    `the root has no "${Attr.duration}": the composition will last as long as the timeline its scripts register as window.__timelines["${id}"] by the time it is ready`,
    'warning',
  );
}

/**
 * Whether `doc` has a script that may register a timeline: inline code naming `__timelines`, or a script file
 * (which only the browser reads). Without either, a root without `data-duration` has no duration at all.
 */
export function mayRegisterTimeline(doc: Document): boolean {
  return queryAllDeep(doc, 'script').some(
    (script) => script.hasAttribute('src') || (script.textContent ?? '').includes('__timelines'),
  );
}
