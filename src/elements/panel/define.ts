import { FxVariablesPanel } from './fx-variables-panel.js';

// Its own module, not define.ts: the player bundle (define.ts alone) stays free of the panel and the linter.
if (!customElements.get('fx-variables-panel')) customElements.define('fx-variables-panel', FxVariablesPanel);

declare global {
  interface HTMLElementTagNameMap {
    'fx-variables-panel': FxVariablesPanel;
  }
}
