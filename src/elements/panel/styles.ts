import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    font: var(--fx-panel-font, 14px/1.4 system-ui, sans-serif);
    color: var(--fx-panel-color, #1b1b1f);
    background: var(--fx-panel-background, #fff);
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: var(--fx-panel-radius, 8px);
    padding: var(--fx-panel-gap, 12px);
  }
  :host([hidden]) {
    display: none;
  }
  header,
  .toolbar,
  .field,
  .row,
  .actions,
  .undeclared li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--fx-panel-gap, 12px) / 2);
  }
  header {
    margin-bottom: var(--fx-panel-gap, 12px);
  }
  h2 {
    font-size: 1em;
    margin: 0;
  }
  [part~='pill'] {
    border-radius: 999px;
    padding: 0 0.6em;
    background: var(--fx-panel-pill-background, #ececf1);
  }
  [part~='pill'][data-custom] {
    background: var(--fx-panel-accent, #3b46d1);
    color: var(--fx-panel-accent-contrast, #fff);
  }
  .fields {
    display: grid;
    gap: var(--fx-panel-gap, 12px);
  }
  .field {
    padding-bottom: calc(var(--fx-panel-gap, 12px) / 2);
    border-bottom: 1px solid var(--fx-panel-border, #c8c8d0);
  }
  fieldset {
    border: 0;
    padding: 0;
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--fx-panel-gap, 12px) / 2);
  }
  legend {
    padding: 0;
    margin-right: 0.5em;
    float: left;
  }
  input,
  select,
  textarea,
  button {
    font: inherit;
  }
  button {
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--fx-panel-accent, #3b46d1);
    outline-offset: 2px;
  }
  [part~='badge'] {
    font-size: 0.85em;
    border: 1px solid currentColor;
    border-radius: 4px;
    padding: 0 0.3em;
    color: var(--fx-panel-warning, #7a4d00);
  }
  [part~='counter'].over {
    color: var(--fx-panel-warning, #7a4d00);
  }
  .issues {
    flex-basis: 100%;
    margin: 0;
    padding-left: 1.2em;
  }
  [part~='issue'][part~='error'] {
    color: var(--fx-panel-error, #b00020);
  }
  [part~='issue'][part~='warning'] {
    color: var(--fx-panel-warning, #7a4d00);
  }
  .toolbar {
    margin-top: var(--fx-panel-gap, 12px);
  }
  [part~='status'] {
    min-height: 1.4em;
    margin: 0;
  }
`;
