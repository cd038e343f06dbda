// `fx-sdk/react`: <fx-composition> in React 19's JSX. React 19 sets a custom element's props as properties (so
// `variables={{ … }}` passes the object) and adds a listener for every `on<event>` prop, by the event's exact name:
// `onvariableschange`, `onerror`, `onready`, … (lowercase, as the events are named). Import it once:
// `import 'fx-sdk/react'` (it also registers the element) or `import type {} from 'fx-sdk/react'`.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { FxComposition, FxCompositionEventMap, FxEvent } from './index.js';

/** The element's own events (not the DOM's), each as React 19 adds it: `on` + the event's name. */
type FxOwnEvent = FxEvent;

export type FxCompositionListeners = {
  [K in FxOwnEvent as `on${K}`]?: (event: FxCompositionEventMap[K]) => void;
};

/** What `<fx-composition>` takes in JSX: its attributes and properties, and listeners for its events. */
export type FxCompositionProps = DetailedHTMLProps<HTMLAttributes<FxComposition>, FxComposition> &
  FxCompositionListeners & {
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
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'fx-composition': FxCompositionProps;
    }
  }
}
