import { FxComposition } from './fx-composition.js';

/** Registers fx's elements once, however many bundles call it. @internal (importing the SDK calls it) */
export function defineFxElements(): void {
  if (!customElements.get('fx-composition')) customElements.define('fx-composition', FxComposition);
}

defineFxElements();

declare global {
  interface HTMLElementTagNameMap {
    'fx-composition': FxComposition;
  }
}
