import { html, nothing } from 'lit';

export interface ToolbarState {
  /** Whether declarations can be edited (offers "Add variable"). */
  readonly editable: boolean;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
}

export interface ToolbarActions {
  add(): void;
  undo(): void;
  redo(): void;
  copyJson(): void;
  copyCommand(): void;
}

/** The panel's actions under the fields: add a declaration, undo, redo, and the two copies. */
export const toolbar = ({ editable, canUndo, canRedo }: ToolbarState, actions: ToolbarActions) =>
  html`<div part="toolbar" class="toolbar" role="toolbar" aria-label="Variables actions">
    ${editable ? html`<button part="button add" type="button" @click=${actions.add}>Add variable</button>` : nothing}
    <button
      part="button undo"
      type="button"
      aria-keyshortcuts="Control+Z Meta+Z"
      ?disabled=${!canUndo}
      @click=${actions.undo}
    >
      Undo
    </button>
    <button
      part="button redo"
      type="button"
      aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
      ?disabled=${!canRedo}
      @click=${actions.redo}
    >
      Redo
    </button>
    <button part="button copy-json" type="button" @click=${actions.copyJson}>Copy JSON</button>
    <button part="button copy-command" type="button" @click=${actions.copyCommand}>Copy render command</button>
  </div>`;
