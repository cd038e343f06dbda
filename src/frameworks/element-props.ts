// What the elements take in any framework's markup, shared by the JSX (react.d.ts) and Svelte (svelte.d.ts)
// typings: their attributes and properties, and a listener per event, named `on` + the event's name as React 19 and
// Svelte 5 add them (`onvariableschange`, `onerror`, `onready`, … lowercase, as the events are named).
import type {
  FxComposition,
  FxCompositionEventMap,
  FxCompositionEvent,
  FxRenderButton,
  FxRenderButtonEvent,
  FxRenderButtonEventMap,
  FxVariablesPanel,
  FxVariablesPanelEvent,
} from '../index.js';

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

/** A listener for each of the element's own events (the `FxCompositionEvent` table), typed by its event map. */
export type FxCompositionListeners = {
  [K in FxCompositionEvent as `on${K}`]?: (
    event: FxCompositionEventMap[K] & { currentTarget: EventTarget & FxComposition },
  ) => void;
};

/** `<fx-variables-panel>`'s attributes and properties. */
export interface FxVariablesPanelProperties {
  /** The id of the `<fx-composition>` it edits. */
  for?: string;
  projectDir?: string;
}

export type FxVariablesPanelListeners = {
  [K in FxVariablesPanelEvent as `on${K}`]?: (
    event: HTMLElementEventMap[K] & { currentTarget: EventTarget & FxVariablesPanel },
  ) => void;
};

/** `<fx-render-button>`'s attributes and properties. */
export interface FxRenderButtonProperties {
  /** The id of the `<fx-composition>` it renders. */
  for?: string;
  service?: string;
  issuer?: string;
  clientId?: string;
  redirectUri?: string;
  format?: FxRenderButton['format'];
  quality?: FxRenderButton['quality'];
  resolution?: FxRenderButton['resolution'];
  fps?: number;
  pollInterval?: number;
  credentials?: FxRenderButton['credentials'];
}

export type FxRenderButtonListeners = {
  [K in FxRenderButtonEvent as `on${K}`]?: (
    event: FxRenderButtonEventMap[K] & { currentTarget: EventTarget & FxRenderButton },
  ) => void;
};
