import { css } from 'lit';

export const styles = css`
  :host {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em;
    font:
      14px/1.4 system-ui,
      sans-serif;
  }
  :host([hidden]) {
    display: none;
  }
  button,
  a {
    min-height: 24px;
    min-width: 24px;
    box-sizing: border-box;
    font: inherit;
  }
  [part~='button'] {
    padding: 0.45em 1em;
    border: 0;
    border-radius: 6px;
    background: var(--fx-render-button-background, #4f46e5);
    color: var(--fx-render-button-color, #fff);
    cursor: pointer;
  }
  [part~='button']:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  [part~='cancel'] {
    padding: 0.3em 0.8em;
    border: 1px solid currentColor;
    border-radius: 6px;
    background: transparent;
    color: inherit;
    cursor: pointer;
  }
  button:focus-visible,
  a:focus-visible {
    outline: 2px solid var(--fx-render-button-background, #4f46e5);
    outline-offset: 2px;
  }
  progress {
    width: 8em;
  }
  [part~='error'] {
    color: var(--fx-render-button-error-color, #b91c1c);
  }
  code {
    font-family: ui-monospace, monospace;
  }
`;
