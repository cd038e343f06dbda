// What <fx-composition> takes in any framework's markup, shared by the JSX (react.d.ts) and Svelte (svelte.d.ts)
// typings: its attributes and properties, and a listener per event, named `on` + the event's name as React 19 and
// Svelte 5 add them (`onvariableschange`, `onerror`, `onready`, … lowercase, as the events are named).
import type { FxComposition, FxCompositionEventMap, FxEvent } from './index.js';

/** The element's attributes and properties. */
export interface FxCompositionProperties {
  src?: string;
  srcdoc?: string | null;
  variables?: Record<string, unknown> | string | null;
  controls?: boolean;
  autoplay?: boolean;
  loop?: boolean;
  muted?: boolean;
  nonce?: string;
  loading?: 'eager' | 'lazy';
  poster?: string;
  posterTime?: string;
  allowCompositionReadsUnder?: readonly string[];
  playbackRate?: number;
  defaultPlaybackRate?: number;
  volume?: number;
}

/** A listener for each of the element's own events (the `FxEvent` table), typed by its event map. */
export type FxCompositionListeners = {
  [K in FxEvent as `on${K}`]?: (
    event: FxCompositionEventMap[K] & { currentTarget: EventTarget & FxComposition },
  ) => void;
};
