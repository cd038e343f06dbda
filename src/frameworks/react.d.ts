// `fx-sdk/react`: <fx-composition>, <fx-variables-panel> and <fx-render-button> in React 19's JSX. React 19 sets a custom element's props as properties (so
// `variables={{ … }}` passes the object) and adds a listener for every `on<event>` prop, by the event's exact name:
// `onvariableschange`, `onerror`, `onready`, … (lowercase, as the events are named). Import it once:
// `import 'fx-sdk/react'` (it also registers the element) or `import type {} from 'fx-sdk/react'`.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { FxComposition, FxRenderButton, FxVariablesPanel } from './index.js';
import type {
  FxCompositionListeners,
  FxCompositionProperties,
  FxRenderButtonListeners,
  FxRenderButtonProperties,
  FxVariablesPanelListeners,
  FxVariablesPanelProperties,
} from './element-props.js';

export type {
  FxCompositionListeners,
  FxCompositionProperties,
  FxRenderButtonListeners,
  FxRenderButtonProperties,
  FxVariablesPanelListeners,
  FxVariablesPanelProperties,
};

/** What `<fx-composition>` takes in JSX: its attributes and properties, and listeners for its events. */
export type FxCompositionProps = DetailedHTMLProps<HTMLAttributes<FxComposition>, FxComposition> &
  FxCompositionListeners &
  FxCompositionProperties;

export type FxVariablesPanelProps = DetailedHTMLProps<HTMLAttributes<FxVariablesPanel>, FxVariablesPanel> &
  FxVariablesPanelListeners &
  FxVariablesPanelProperties;

export type FxRenderButtonProps = Omit<DetailedHTMLProps<HTMLAttributes<FxRenderButton>, FxRenderButton>, 'onError'> &
  FxRenderButtonListeners &
  FxRenderButtonProperties;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'fx-composition': FxCompositionProps;
      'fx-variables-panel': FxVariablesPanelProps;
      'fx-render-button': FxRenderButtonProps;
    }
  }
}
