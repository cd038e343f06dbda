// `fx-sdk/svelte`: <fx-composition>, <fx-variables-panel> and <fx-render-button> in Svelte 5 markup, through `svelte/elements`' `SvelteHTMLElements`. Svelte 5
// sets an attribute as a property when the element has one (so `variables={{ … }}` passes the object; import the
// element before mounting) and adds a listener for every `on<event>` attribute, by the event's exact name:
// `onvariableschange`, `onerror`, `onready`, … Import it once: `import 'fx-sdk/svelte'` (it also registers the
// element) or `import type {} from 'fx-sdk/svelte'`.
import type { HTMLAttributes } from 'svelte/elements';
import type { FxComposition, FxRenderButton, FxVariablesPanel } from '../index.js';
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

/** What `<fx-composition>` takes in Svelte markup: the DOM's attributes, its own, and listeners for its events. */
export type FxCompositionAttributes = Omit<
  HTMLAttributes<FxComposition>,
  keyof FxCompositionListeners | keyof FxCompositionProperties
> &
  FxCompositionListeners &
  FxCompositionProperties;

export type FxVariablesPanelAttributes = Omit<
  HTMLAttributes<FxVariablesPanel>,
  keyof FxVariablesPanelListeners | keyof FxVariablesPanelProperties
> &
  FxVariablesPanelListeners &
  FxVariablesPanelProperties;

export type FxRenderButtonAttributes = Omit<
  HTMLAttributes<FxRenderButton>,
  keyof FxRenderButtonListeners | keyof FxRenderButtonProperties
> &
  FxRenderButtonListeners &
  FxRenderButtonProperties;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'fx-composition': FxCompositionAttributes;
    'fx-variables-panel': FxVariablesPanelAttributes;
    'fx-render-button': FxRenderButtonAttributes;
  }
}
