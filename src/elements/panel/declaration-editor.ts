/** The panel's declaration form: what it edits and its draft; adding, editing, declaring and removing a variable. */
import { nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { VariableType } from '../../runtime/constants.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { isFxError } from '../../runtime/errors.js';
import { declarationOf, draftOf, freeId, newDeclaration } from './declaration-edit.js';
import { declarationForm, type DeclarationEditing } from './declaration-form.js';
import { FormFocus } from './form-focus.js';

/** The panel, as far as editing its declarations goes (its public API). */
export interface EditorHost extends ReactiveControllerHost, HTMLElement {
  readonly declarations: VariableDeclaration[];
  setDeclarations(list: readonly unknown[]): string;
}

/**
 * Opens the declaration form (under the field it edits, or after the fields for a new one), keeps its draft, and
 * makes each edit through the panel's `setDeclarations`: a refusal shows in the form (or is announced), never
 * thrown into the page. A change asks for an update.
 */
export class DeclarationEditor {
  #editing: DeclarationEditing | undefined;
  #focus: FormFocus;

  constructor(
    private readonly host: EditorHost,
    private readonly announce: (text: string) => void,
  ) {
    this.#focus = new FormFocus(host, '#draft-id');
  }

  #set(editing: DeclarationEditing | undefined): void {
    const changed = editing !== this.#editing;
    this.#editing = editing;
    if (changed) this.host.requestUpdate();
  }

  /** The form under the field of the declaration at `index`, when that is the one edited. */
  formAt(index: number): TemplateResult | typeof nothing {
    return this.#editing?.index === index ? this.#form(this.#editing) : nothing;
  }

  /** The form adding a declaration, when one is being added. */
  newForm(): TemplateResult | typeof nothing {
    return this.#editing?.index === undefined ? this.#form(this.#editing) : nothing;
  }

  /** Another source is shown: an open form is dropped (focus stays where it is). */
  drop(): void {
    this.#set(undefined);
  }

  add(): void {
    const id = freeId('variable', new Set(this.host.declarations.map((declaration) => declaration.id)));
    this.#open({ index: undefined, draft: draftOf(newDeclaration(id, 'string')), issues: [] });
  }

  edit(index: number, declaration: VariableDeclaration): void {
    this.#open({ index, draft: draftOf(declaration), issues: [] });
  }

  /** Declares an id the composition reads undeclared. */
  declare(id: string, type: VariableType): void {
    this.#tryEdit(() => this.host.setDeclarations([...this.host.declarations, newDeclaration(id, type)]));
  }

  remove(index: number): void {
    this.#tryEdit(() => this.host.setDeclarations(this.host.declarations.filter((_, at) => at !== index)));
  }

  #submit(): void {
    const editing = this.#editing;
    if (!editing) return;
    const shown = this.host.declarations;
    const base = editing.index === undefined ? undefined : shown[editing.index];
    const edited = declarationOf(editing.draft, base);
    const list =
      editing.index === undefined
        ? [...shown, edited]
        : shown.map((declaration, at) => (at === editing.index ? edited : declaration));
    if (this.#tryEdit(() => this.host.setDeclarations(list))) this.#close();
  }

  /** Runs an edit; a refusal is shown in the form (or announced), never thrown into the page. */
  #tryEdit(edit: () => void): boolean {
    try {
      edit();
      return true;
    } catch (error) {
      const issues =
        isFxError(error) && error.issues.length > 0
          ? error.issues
          : [
              {
                code: isFxError(error) ? error.code : 'error',
                severity: 'error' as const,
                path: [],
                message: (error as Error).message,
              },
            ];
      if (this.#editing) this.#set({ ...this.#editing, issues });
      else this.announce(issues.map((found) => found.message).join('; '));
      return false;
    }
  }

  #form(editing: DeclarationEditing | undefined) {
    if (!editing) return nothing;
    return declarationForm(editing, {
      change: (patch) => {
        if (this.#editing)
          this.#set({ ...this.#editing, draft: { ...this.#editing.draft, ...patch(this.#editing.draft) } });
      },
      submit: () => this.#submit(),
      cancel: () => this.#close(),
    });
  }

  #open(editing: DeclarationEditing): void {
    this.#focus.opening();
    this.#set(editing);
  }

  #close(): void {
    this.#focus.closing();
    this.#set(undefined);
  }
}
