import { FxVariablesPanel } from './fx-variables-panel.js';

/** Registers `<fx-variables-panel>` once. @internal (to be folded into define.ts) */
export function defineFxVariablesPanel(): void {
  if (!customElements.get('fx-variables-panel')) customElements.define('fx-variables-panel', FxVariablesPanel);
}

defineFxVariablesPanel();

declare global {
  interface HTMLElementTagNameMap {
    'fx-variables-panel': FxVariablesPanel;
  }
}
