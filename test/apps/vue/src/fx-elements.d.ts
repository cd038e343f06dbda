// <fx-composition> and <fx-variables-panel> typed in Vue templates (the snippet of docs/elements.md): props, and `@event`
// handlers with typed events.
import type { DefineComponent } from 'vue';
import type { FxCompositionEventMap } from 'fx-sdk';

type FxListener<K extends keyof FxCompositionEventMap> = (event: FxCompositionEventMap[K]) => void;

declare module 'vue' {
  interface GlobalComponents {
    'fx-composition': DefineComponent<{
      src?: string;
      srcdoc?: string;
      variables?: Record<string, unknown> | string | null;
      controls?: boolean;
      autoplay?: boolean;
      loop?: boolean;
      muted?: boolean;
      loading?: 'eager' | 'lazy';
      poster?: string;
      onReady?: FxListener<'ready'>;
      onVariableschange?: FxListener<'variableschange'>;
      onError?: FxListener<'error'>;
      onTimeupdate?: FxListener<'timeupdate'>;
    }>;
    'fx-variables-panel': DefineComponent<{
      for?: string;
      projectDir?: string;
      onDeclarationschange?: (event: HTMLElementEventMap['declarationschange']) => void;
    }>;
  }
}
