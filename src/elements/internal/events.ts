import type { Issue } from '../../runtime/issues.js';
import { FxCompositionEvent } from './constants.js';

export interface FxErrorDetail {
  readonly code: string;
  readonly message: string;
  /** Itemised problems, e.g. each broken sub-composition with its path. */
  readonly issues?: readonly Issue[];
}

export interface FxVariablesChangeDetail {
  readonly values: Readonly<Record<string, unknown>>;
  readonly issues: readonly Issue[];
  /**
   * True when the composition's scripts read values at load: the frame reloads with these values, and another
   * `variableschange` follows once it is ready (its issues describe the reloaded frame).
   */
  readonly reloading: boolean;
}

/** Typed `detail` of the element's custom events. */
export interface FxCompositionEventDetails {
  [FxCompositionEvent.error]: FxErrorDetail;
  [FxCompositionEvent.variablesChange]: FxVariablesChangeDetail;
}

/** The one way the element emits events: bubbling (but `error`), composed, typed detail. */
export function emit<Name extends FxCompositionEvent>(
  target: EventTarget,
  name: Name,
  ...detail: Name extends keyof FxCompositionEventDetails ? [FxCompositionEventDetails[Name]] : []
): boolean {
  // `error` stays on the element, like HTMLMediaElement's: bubbling to `window`, it would read as an uncaught
  // script error to every global error handler (test runners, error trackers).
  const init = { bubbles: name !== FxCompositionEvent.error, composed: true, detail: detail[0] };
  return target.dispatchEvent(detail.length ? new CustomEvent(name, init) : new Event(name, init));
}

/**
 * Every event of `<fx-composition>` with its type, for its `addEventListener` overloads (as lib.dom's
 * `HTMLMediaElementEventMap`). `error` is a `CustomEvent` with `{ code, message }`, not the DOM's `ErrorEvent`.
 */
export interface FxCompositionEventMap extends Omit<HTMLElementEventMap, typeof FxCompositionEvent.error> {
  [FxCompositionEvent.loadedMetadata]: Event;
  [FxCompositionEvent.durationChange]: Event;
  [FxCompositionEvent.volumeChange]: Event;
  [FxCompositionEvent.rateChange]: Event;
  [FxCompositionEvent.loadStart]: Event;
  [FxCompositionEvent.emptied]: Event;
  [FxCompositionEvent.loadedData]: Event;
  [FxCompositionEvent.canPlay]: Event;
  [FxCompositionEvent.canPlayThrough]: Event;
  [FxCompositionEvent.play]: Event;
  [FxCompositionEvent.playing]: Event;
  [FxCompositionEvent.waiting]: Event;
  [FxCompositionEvent.pause]: Event;
  [FxCompositionEvent.timeUpdate]: Event;
  [FxCompositionEvent.seeking]: Event;
  [FxCompositionEvent.seeked]: Event;
  [FxCompositionEvent.ended]: Event;
  [FxCompositionEvent.ready]: Event;
  [FxCompositionEvent.variablesChange]: CustomEvent<FxVariablesChangeDetail>;
  [FxCompositionEvent.variablesRead]: Event;
  [FxCompositionEvent.error]: CustomEvent<FxErrorDetail>;
}

declare global {
  // `variableschange` bubbles, so a listener on an ancestor sees it typed too (`error` does not bubble).
  interface HTMLElementEventMap {
    variableschange: CustomEvent<FxVariablesChangeDetail>;
  }
}

/** Problems the host found (refused font sources) as one `error` event, named for the first. */
export function emitIssues(target: EventTarget, issues: readonly Issue[]): void {
  const first = issues[0];
  if (first) emit(target, FxCompositionEvent.error, { code: first.code, message: first.message, issues });
}
