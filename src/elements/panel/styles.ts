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
    container: fx-panel / inline-size;
  }
  :host([hidden]) {
    display: none;
  }
  header,
  .toolbar,
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
  /*
   * A field is a grid: label | controls | tools (badge and icon buttons). The label column has one width for every
   * field, so controls line up down the panel; a group's fieldset spans the field and repeats its columns.
   */
  .field,
  .field > fieldset {
    display: grid;
    /* The tools column fits three buttons in every field, so the controls' right edges line up too. */
    grid-template-columns: var(--fx-panel-label-width, 8em) minmax(0, 1fr) minmax(calc(3 * 1.75em + 4px), auto);
    grid-template-areas: 'label control tools';
    align-items: center;
    column-gap: calc(var(--fx-panel-gap, 12px) / 2);
    row-gap: calc(var(--fx-panel-gap, 12px) / 3);
  }
  .field {
    padding-bottom: calc(var(--fx-panel-gap, 12px) / 2);
    border-bottom: 1px solid var(--fx-panel-border, #c8c8d0);
  }
  .field > fieldset {
    grid-column: 1 / -1;
    border: 0;
    padding: 0;
    margin: 0;
    min-width: 0;
  }
  .field [part~='label'] {
    grid-area: label;
    padding: 0;
    overflow-wrap: anywhere;
  }
  .control {
    grid-area: control;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--fx-panel-gap, 12px) / 3);
    min-width: 0;
  }
  .control input:not([type='checkbox'], [type='color'], [type='file']),
  .control select {
    flex: 1 1 6em;
    min-width: 0;
  }
  .control [type='file'] {
    flex: 1 1 100%;
    min-width: 0;
    font-size: 0.85em;
  }
  .control [type='checkbox'] {
    margin: 0;
  }
  .control [type='color'] {
    width: 2.5em;
    height: 1.9em;
    padding: 1px;
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: calc(var(--fx-panel-radius, 8px) * 0.5);
    background: transparent;
    cursor: pointer;
  }
  .control [type='file']::file-selector-button {
    font: inherit;
    color: inherit;
    background: transparent;
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: calc(var(--fx-panel-radius, 8px) * 0.5);
    padding: 0.1em 0.6em;
    margin-right: 0.5em;
    cursor: pointer;
  }
  .tools {
    grid-area: tools;
    display: flex;
    align-items: center;
    justify-content: flex-end;
    gap: 2px;
  }
  .field > .issues {
    grid-column: 2 / -1;
  }
  /* Narrow (a phone): the label row keeps the tools, the controls take the whole width under it. */
  @container fx-panel (max-width: 24em) {
    .field,
    .field > fieldset {
      grid-template-columns: minmax(0, 1fr) auto;
      grid-template-areas: 'label tools' 'control control';
    }
    .field > .issues {
      grid-column: 1 / -1;
    }
  }
  /* The declaration form: its own label | input grid, one column when narrow. */
  [part~='declaration-form'] {
    padding: var(--fx-panel-gap, 12px);
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: calc(var(--fx-panel-radius, 8px) * 0.75);
  }
  [part~='declaration-form'] > fieldset {
    display: grid;
    grid-template-columns: var(--fx-panel-label-width, 8em) minmax(0, 1fr);
    gap: calc(var(--fx-panel-gap, 12px) / 3) calc(var(--fx-panel-gap, 12px) / 2);
  }
  [part~='declaration-form'] legend {
    float: none;
    font-weight: 600;
    margin-bottom: calc(var(--fx-panel-gap, 12px) / 2);
  }
  [part~='declaration-form'] .row {
    display: contents;
  }
  [part~='declaration-form'] :is(input:not([type='checkbox']), select, textarea) {
    min-width: 0;
    box-sizing: border-box;
  }
  [part~='declaration-form'] [type='checkbox'] {
    justify-self: start;
  }
  [part~='declaration-form'] :is(.issues, .actions) {
    grid-column: 1 / -1;
  }
  [part~='declaration-form'] .actions {
    justify-content: flex-end;
    margin-top: calc(var(--fx-panel-gap, 12px) / 3);
  }
  @container fx-panel (max-width: 24em) {
    [part~='declaration-form'] > fieldset {
      grid-template-columns: minmax(0, 1fr);
    }
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
  input:not([type='checkbox'], [type='color'], [type='file']),
  select,
  textarea {
    color: inherit;
    background: var(--fx-panel-input-background, transparent);
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: calc(var(--fx-panel-radius, 8px) * 0.5);
    padding: 0.2em 0.4em;
  }
  [aria-invalid='true'] {
    border-color: var(--fx-panel-error, #b00020);
  }
  button {
    cursor: pointer;
    color: inherit;
    background: transparent;
    border: 1px solid var(--fx-panel-border, #c8c8d0);
    border-radius: calc(var(--fx-panel-radius, 8px) * 0.75);
    padding: 0.15em 0.7em;
  }
  button:disabled {
    cursor: default;
    opacity: 0.5;
  }
  button.icon {
    display: inline-grid;
    place-items: center;
    width: 1.75em;
    height: 1.75em;
    padding: 0;
    border: 1px solid transparent;
    border-radius: 4px;
    background: transparent;
    color: var(--fx-panel-muted, #5b5b66);
  }
  button.icon:hover,
  button.icon:focus-visible {
    color: var(--fx-panel-color, #1b1b1f);
    border-color: var(--fx-panel-border, #c8c8d0);
  }
  button.icon svg {
    width: 1em;
    height: 1em;
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
    font-size: 0.9em;
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
