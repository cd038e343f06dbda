import { FxRenderButton } from './fx-render-button.js';

// Its own module, not define.ts: the player bundle (define.ts alone) stays free of the client and sign-in.
if (!customElements.get('fx-render-button')) customElements.define('fx-render-button', FxRenderButton);

declare global {
  interface HTMLElementTagNameMap {
    'fx-render-button': FxRenderButton;
  }
}
