import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { VariableType } from '../../runtime/constants.js';
import { DECLARATION_SCHEMA } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import type { DeclarationDraft } from './declaration-edit.js';
import { issueList } from './issue-list.js';

/** An open declaration form: which declaration (`undefined`: a new one), its draft, and why it was refused. */
export interface DeclarationEditing {
  readonly index: number | undefined;
  readonly draft: DeclarationDraft;
  readonly issues: readonly Issue[];
}

export interface DeclarationFormActions {
  /** Applies `patch` to the draft as it is then (several inputs may fire before the next render). */
  change(patch: (draft: DeclarationDraft) => Partial<DeclarationDraft>): void;
  submit(): void;
  cancel(): void;
}

/** What each type field is called in the form. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  placeholder: 'Placeholder',
  maxLength: 'Max length',
  min: 'Min',
  max: 'Max',
  step: 'Step',
  unit: 'Unit',
  options: 'Options (one per line: value or value: label)',
};

const value = (event: Event) => (event.target as HTMLInputElement).value;

/** The form that adds or edits one declaration: id, type, label, default and the type's own fields. */
export function declarationForm(editing: DeclarationEditing, actions: DeclarationFormActions): TemplateResult {
  const { draft } = editing;
  const update = (patch: Partial<DeclarationDraft>) => actions.change(() => patch);
  const updateField = (name: string, text: string) =>
    actions.change((current) => ({ fields: { ...current.fields, [name]: text } }));
  const field = (name: string) => {
    const id = `draft-${name}`;
    const input =
      name === 'options'
        ? html`<textarea
            part="input"
            id=${id}
            rows="3"
            .value=${live(draft.fields[name] ?? '')}
            @input=${(event: Event) => updateField(name, value(event))}
          ></textarea>`
        : html`<input
            part="input"
            id=${id}
            type=${name === 'placeholder' || name === 'unit' ? 'text' : 'number'}
            step="any"
            .value=${live(draft.fields[name] ?? '')}
            @input=${(event: Event) => updateField(name, value(event))}
          />`;
    return html`<div class="row"><label part="label" for=${id}>${FIELD_LABELS[name] ?? name}</label>${input}</div>`;
  };
  const isFlag = draft.type === VariableType.boolean;
  return html`<form
    part="declaration-form"
    @submit=${(event: Event) => {
      event.preventDefault();
      actions.submit();
    }}
    @keydown=${(event: KeyboardEvent) => event.key === 'Escape' && actions.cancel()}
  >
    <fieldset part="group">
      <legend part="label">${editing.index === undefined ? 'New variable' : `Edit variable "${draft.id}"`}</legend>
      <div class="row">
        <label part="label" for="draft-id">Id</label
        ><input
          part="input"
          id="draft-id"
          required
          .value=${live(draft.id)}
          @input=${(event: Event) => update({ id: value(event) })}
        />
      </div>
      <div class="row">
        <label part="label" for="draft-type">Type</label>
        <select
          part="input select"
          id="draft-type"
          @change=${(event: Event) => update({ type: value(event) as VariableType })}
        >
          ${Object.values(VariableType).map((type) => html`<option .value=${type} .selected=${type === draft.type}>${type}</option>`)}
        </select>
      </div>
      <div class="row">
        <label part="label" for="draft-label">Label</label
        ><input
          part="input"
          id="draft-label"
          .value=${live(draft.label)}
          @input=${(event: Event) => update({ label: value(event) })}
        />
      </div>
      <div class="row">
        <label part="label" for="draft-default">Default</label>
        ${
          isFlag
            ? html`<input
                part="input checkbox"
                id="draft-default"
                type="checkbox"
                .checked=${live(draft.defaultFlag)}
                @change=${(event: Event) => update({ defaultFlag: (event.target as HTMLInputElement).checked })}
              />`
            : html`<input
                part="input"
                id="draft-default"
                type=${draft.type === VariableType.number ? 'number' : 'text'}
                step="any"
                .value=${live(draft.default)}
                @input=${(event: Event) => update({ default: value(event) })}
              />`
        }
      </div>
      ${Object.keys(DECLARATION_SCHEMA[draft.type].fields).map(field)}
      ${editing.issues.length > 0 ? issueList('draft-issues', editing.issues) : nothing}
      <div class="actions">
        <button part="button" type="submit">${editing.index === undefined ? 'Add' : 'Apply'}</button>
        <button part="button" type="button" @click=${actions.cancel}>Cancel</button>
      </div>
    </fieldset>
  </form>`;
}
