import { html } from 'lit';
import type { EnumDeclaration } from '../../../runtime/declarations.js';
import { labelOf, type InputRenderer } from './types.js';

/** A select of the declared options; a value none of them holds shows as an extra, marked entry. */
export const enumInput: InputRenderer<EnumDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) => {
  const current = typeof value === 'string' ? value : '';
  const known = declaration.options.some((option) => option.value === current);
  return html`<label part="label" for=${controlId}>${labelOf(declaration)}</label>
    <div part="control" class="control">
      <select
        part="input select"
        id=${controlId}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @change=${(event: Event) => set((event.target as HTMLSelectElement).value)}
      >
        ${declaration.options.map((option) => html`<option .value=${option.value} .selected=${option.value === current}>${option.label}</option>`)}
        ${known ? '' : html`<option .value=${current} .selected=${true} disabled>${current} (not an option)</option>`}
      </select>
    </div>
    ${tools}`;
};
