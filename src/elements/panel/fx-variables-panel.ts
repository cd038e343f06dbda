import '../internal/lit-dev-notice.js';
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import { resolveVariables } from '../../runtime/precedence.js';
import { FxCompositionErrorCode } from '../internal/constants.js';
import type { FxErrorDetail, FxVariablesChangeDetail } from '../internal/events.js';
import type { FxComposition } from '../composition/fx-composition.js';
import { FxVariablesPanelAttribute, PanelText } from './constants.js';
import { PanelBinding } from './binding.js';
import { renderCommand, valuesJson } from './copy.js';
import { DeclarationEditor } from './declaration-editor.js';
import { DeclarationSource, type DeclarationsChangeDetail } from './declaration-source.js';
import { field } from './field.js';
import { issueList } from './issue-list.js';
import { isUndoKey } from './keys.js';
import { withScriptReads } from './reads.js';
import { toolbar } from './toolbar.js';
import { undeclaredList } from './undeclared.js';
import { styles } from './styles.js';
import { placeIssues } from './value-issues.js';

/**
 * Edits the variables of an `<fx-composition>`: an input per declared variable writing live overrides (never a
 * reload), per-field issues, reset, copy as JSON or as a `fx cloud render` command, and editing of the declarations
 * themselves with undo and redo.
 *
 * @tagname fx-variables-panel
 * @summary The variables of an `<fx-composition>`, as a form: live values, issues, declarations.
 *
 * @attr for - Id of the `<fx-composition>` to edit, in the same document or shadow root.
 * @attr project-dir - The project folder the copied `fx cloud render` command names (default `.`).
 *
 * @prop {FxComposition | null} composition - The bound element: the one `for` names, or one set directly (then
 *   `for` is ignored).
 * @prop {VariableDeclaration[]} declarations - The declarations shown: the composition's, or the panel's edit of them.
 * @prop {Record<string, unknown>} values - The values in effect: declared defaults under the overrides, resolved
 *   as the runtime does (numbers clamped, refused values falling back to the default).
 * @prop {string | undefined} html - The composition's HTML with the shown declarations in its
 *   `data-composition-variables`; `undefined` until its source was read.
 * @prop {boolean} canUndo
 * @prop {boolean} canRedo
 *
 * @fires {CustomEvent<{ declarations: VariableDeclaration[], html: string }>} declarationschange - Declarations were
 *   added, edited or removed, or such a change was undone or redone. Cancelable: unless cancelled, a composition
 *   shown from `srcdoc` gets the new HTML as its `srcdoc` (it reloads); one shown from `src` is for the app to save.
 *
 * @csspart header - The title, the pill and "Reset all".
 * @csspart pill - "defaults" or "N custom values"; has `data-custom` when there are overrides.
 * @csspart fields - The list of variables.
 * @csspart field - One variable: a grid of its label, its controls and its tools, then its issues. The labels share
 *   one column (`--fx-panel-label-width`), so controls line up; a panel narrower than 24em stacks the controls under
 *   their label.
 * @csspart label - A control's label or the label of a group (its fieldset's name).
 * @csspart control - A field's controls (input, picker, counter, file input).
 * @csspart tools - A field's `unused` badge and small buttons, on its label's row.
 * @csspart icon-button - A field's small buttons, each showing a glyph and named for assistive technology and in
 *   its tooltip ("Reset Title to its default", "Edit Title", "Remove Title"); also `reset-field`, `edit`, `remove`.
 * @csspart group - The fieldset of a variable with several controls (color, font, image) and of the form.
 * @csspart drop-zone - An image variable's group, where an image file may be dropped.
 * @csspart input - Every text, number, color, file and checkbox input and select (also `checkbox`, `select`,
 *   `color-picker`, `file`).
 * @csspart counter - The length counter of a string with a `maxLength`.
 * @csspart badge - The `unused` badge.
 * @csspart issues - A list of issues; each item is `issue` and `error` or `warning`.
 * @csspart button - Every button (also `reset-all`, `undo`, `redo`, `copy-json`, `copy-command`, `add`, `declare`,
 *   and the icon buttons `reset-field`, `edit`, `remove`).
 * @csspart undeclared - Ids the composition reads without declaring them (its bindings, as lint finds them, and
 *   its scripts, as `<fx-composition>.variablesRead` reports them), each with a "Declare" button.
 * @csspart toolbar - Add, undo, redo and the copy buttons.
 * @csspart declaration-form - The form adding or editing a declaration, under the field it edits (focus moves into
 *   it, and back where it came from once it closes; Escape cancels).
 * @csspart status - The live region announcing copies, undo and redo.
 * @csspart status-source - Why declarations cannot be edited (the composition's source could not be read).
 *
 * @cssproperty --fx-panel-font - Font of the panel.
 * @cssproperty --fx-panel-color - Text color.
 * @cssproperty --fx-panel-background - Background.
 * @cssproperty --fx-panel-border - Color of the border and separators.
 * @cssproperty --fx-panel-radius - Corner radius.
 * @cssproperty --fx-panel-gap - Spacing unit.
 * @cssproperty --fx-panel-label-width - Width of the labels' column (default `8em`).
 * @cssproperty --fx-panel-muted - The icon buttons at rest (they take `--fx-panel-color` on hover and focus).
 * @cssproperty --fx-panel-input-background - Background of text inputs and selects (default transparent).
 * @cssproperty --fx-panel-accent - Focus rings and the pill with custom values.
 * @cssproperty --fx-panel-accent-contrast - Text on the accent.
 * @cssproperty --fx-panel-pill-background - The pill showing defaults.
 * @cssproperty --fx-panel-error - Error issues.
 * @cssproperty --fx-panel-warning - Warning issues, the `unused` badge and an exceeded counter.
 */
export class FxVariablesPanel extends LitElement {
  static override styles = styles;

  @property({ attribute: FxVariablesPanelAttribute.for }) for = '';
  // A literal: the manifest analyzer reads it (FxVariablesPanelAttribute.projectDir names it too).
  @property({ attribute: 'project-dir' }) projectDir = '.';

  @state() private overrides: Readonly<Record<string, unknown>> = {};
  @state() private reported: readonly Issue[] = [];
  /** Why the latest `variables` the panel set were refused (the composition's `error`), until the next change. */
  @state() private refused: Issue | undefined;
  @state() private announcement = '';
  /** What the composition's scripts read (its `variablesRead`). */
  @state() private scriptReads: readonly string[] = [];

  #source = new DeclarationSource(this, {
    composition: () => this.composition,
    dropped: (dropped) => {
      // An override of a removed (or retyped) variable would now be refused or undeclared.
      const kept = Object.fromEntries(
        Object.entries(this.overrides).filter(([id]) => !dropped.some((old) => old.id === id)),
      );
      if (Object.keys(kept).length !== Object.keys(this.overrides).length) this.#writeValues(kept);
    },
  });
  #editor = new DeclarationEditor(this, (text) => (this.announcement = text));
  #binding = new PanelBinding(this, {
    bound: () => this.#sync(),
    loaded: () => this.#sync(),
    variablesChanged: (detail) => this.#onVariablesChange(detail),
    read: () => (this.scriptReads = this.composition?.variablesRead ?? []),
    failed: (detail) => this.#onCompositionError(detail),
  });

  constructor() {
    super();
    this.addEventListener('keydown', (event) => this.#onKeyDown(event));
  }

  get composition(): FxComposition | null {
    return this.#binding.composition;
  }
  set composition(element: FxComposition | null) {
    this.#binding.pin(element);
  }
  get declarations(): VariableDeclaration[] {
    return [...this.#source.shown];
  }
  get values(): Record<string, unknown> {
    return resolveVariables(this.#source.shown, { overrides: this.overrides }).values;
  }
  get html(): string | undefined {
    return this.#source.html;
  }
  get canUndo(): boolean {
    return this.#source.canUndo;
  }
  get canRedo(): boolean {
    return this.#source.canRedo;
  }

  /** The values in effect as JSON, as the copy button copies them. */
  valuesJson(): string {
    return valuesJson(this.values);
  }

  /** `fx cloud render <project-dir> --variables '<values>'`, quoted for POSIX shells, as the copy button copies it. */
  renderCommand(): string {
    return renderCommand(this.projectDir, this.values);
  }

  /** Copies {@link valuesJson} to the clipboard and announces it; resolves false when the clipboard refused. */
  copyJson(): Promise<boolean> {
    return this.#copy(this.valuesJson(), 'Values copied as JSON');
  }

  copyCommand(): Promise<boolean> {
    return this.#copy(this.renderCommand(), 'Render command copied');
  }

  /** Removes the override of `id` (its default applies again), or every override without an id. */
  reset(id?: string): void {
    if (id === undefined) return this.#writeValues({});
    const { [id]: _removed, ...rest } = this.overrides;
    this.#writeValues(rest);
  }

  /**
   * Replaces the declarations (each checked as `parseVariableDeclarations` checks them), records the step for undo,
   * fires `declarationschange`, and returns the composition's HTML carrying them. Throws an `FxError`:
   * `declarations_invalid` (with `issues`), `source_unavailable` (the source was not read yet or could not be),
   * `declaration_root_missing` or `declarations_rewrite_failed`.
   */
  setDeclarations(list: readonly unknown[]): string {
    return this.#source.edit(list);
  }

  /** Steps the declarations back; false when there is nothing to undo. */
  undo(): boolean {
    return this.#announceStep(this.#source.undo(), 'Undone');
  }

  redo(): boolean {
    return this.#announceStep(this.#source.redo(), 'Redone');
  }

  #announceStep(stepped: boolean, said: string): boolean {
    if (stepped) this.announcement = said;
    return stepped;
  }

  /** What the composition holds now: declarations, overrides, and (once per source) its HTML. */
  #sync(): void {
    const composition = this.composition;
    this.scriptReads = composition?.variablesRead ?? [];
    if (!composition) return;
    this.overrides = composition.variables;
    if (this.#source.read(composition)) this.#editor.drop();
  }

  #onVariablesChange(detail: FxVariablesChangeDetail): void {
    const composition = this.composition;
    this.#source.loaded(composition);
    this.overrides = composition?.variables ?? {};
    this.reported = detail.issues;
    this.refused = undefined;
  }

  #onCompositionError(detail: FxErrorDetail): void {
    if (
      detail.code === FxCompositionErrorCode.variablesJsonInvalid ||
      detail.code === FxCompositionErrorCode.variablesNotCloneable
    ) {
      this.refused = { code: detail.code, severity: 'error', path: [], message: detail.message };
    }
  }

  /** Hands `overrides` to the composition, which applies them live; the panel shows what it took. */
  #writeValues(overrides: Record<string, unknown>): void {
    const composition = this.composition;
    if (!composition) {
      this.overrides = overrides;
      return;
    }
    composition.variables = overrides;
    this.overrides = composition.variables;
  }

  #setValue(id: string, value: unknown): void {
    this.#writeValues({ ...this.overrides, [id]: value });
  }

  async #copy(text: string, said: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
      this.announcement = said;
      return true;
    } catch {
      this.announcement = 'Copy failed: the clipboard is not available here';
      return false;
    }
  }

  #onKeyDown(event: KeyboardEvent): void {
    const step = isUndoKey(event);
    if (!step || event.defaultPrevented) return;
    if (!(step === 'undo' ? this.undo() : this.redo())) return;
    event.preventDefault();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('for')) this.#binding.follow(this.for);
  }

  protected override render() {
    const { shown: declarations, html: source, problem } = this.#source;
    const custom = Object.keys(this.overrides).length;
    const placed = placeIssues(this.overrides, declarations, this.reported);
    const general = this.refused ? [this.refused, ...placed.general] : placed.general;
    const editable = source !== undefined;
    const reads = withScriptReads(this.#source.reads, this.scriptReads, new Set(declarations.map(({ id }) => id)));
    return html`
      <header part="header">
        <h2 id="title">Variables</h2>
        <span part="pill" ?data-custom=${custom > 0}
          >${custom > 0 ? PanelText.customValues(custom) : PanelText.defaults}</span
        >
        <button part="button reset-all" type="button" ?disabled=${custom === 0} @click=${() => this.reset()}>
          Reset all
        </button>
      </header>
      ${general.length > 0 ? issueList('general-issues', general) : nothing}
      ${problem ? html`<p part="status-source" role="note">Declarations cannot be edited: ${problem}</p>` : nothing}
      <div part="fields" class="fields" role="group" aria-labelledby="title">
        ${declarations.map((declaration, index) => {
          const overridden = Object.hasOwn(this.overrides, declaration.id);
          const shown = field(
            {
              declaration,
              index,
              value: overridden ? this.overrides[declaration.id] : declaration.default,
              overridden,
              unused: reads.unused.has(declaration.id),
              issues: placed.byId.get(declaration.id) ?? [],
              editable,
            },
            {
              set: (value) => this.#setValue(declaration.id, value),
              reset: () => this.reset(declaration.id),
              edit: () => this.#editor.edit(index, declaration),
              remove: () => this.#editor.remove(index),
            },
          );
          // The form editing a declaration opens under its field (always a pair, so lit keeps the field's DOM).
          return [shown, this.#editor.formAt(index)];
        })}
        ${this.#editor.newForm()}
      </div>
      ${undeclaredList(reads.undeclared, editable ? (id, type) => this.#editor.declare(id, type) : undefined)}
      ${toolbar(
        { editable, canUndo: this.canUndo, canRedo: this.canRedo },
        {
          add: () => this.#editor.add(),
          undo: () => this.undo(),
          redo: () => this.redo(),
          copyJson: () => void this.copyJson(),
          copyCommand: () => void this.copyCommand(),
        },
      )}
      <p part="status" role="status" aria-live="polite">${this.announcement}</p>
    `;
  }
}

declare global {
  interface HTMLElementEventMap {
    declarationschange: CustomEvent<DeclarationsChangeDetail>;
  }
}
