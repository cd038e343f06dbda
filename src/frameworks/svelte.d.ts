// `fx-sdk/svelte`: <fx-composition> in Svelte 5 markup, through `svelte/elements`' `SvelteHTMLElements`. Svelte 5
// sets an attribute as a property when the element has one (so `variables={{ … }}` passes the object; import the
// element before mounting) and adds a listener for every `on<event>` attribute, by the event's exact name:
// `onvariableschange`, `onerror`, `onready`, … Import it once: `import 'fx-sdk/svelte'` (it also registers the
// element) or `import type {} from 'fx-sdk/svelte'`.
import type { HTMLAttributes } from 'svelte/elements';
import type { FxComposition } from './index.js';
import type { FxCompositionListeners, FxCompositionProperties } from './element-props.js';

export type { FxCompositionListeners, FxCompositionProperties };

/** What `<fx-composition>` takes in Svelte markup: the DOM's attributes, its own, and listeners for its events. */
export type FxCompositionAttributes = Omit<
  HTMLAttributes<FxComposition>,
  keyof FxCompositionListeners | keyof FxCompositionProperties
> &
  FxCompositionListeners &
  FxCompositionProperties;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'fx-composition': FxCompositionAttributes;
  }
}
