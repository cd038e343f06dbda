import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import type { BooleanDeclaration } from '../../../runtime/declarations.js';
import { labelOf, targetOf, type InputRenderer } from './types.js';

export const booleanInput: InputRenderer<BooleanDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) =>
  html`<div part="control" class="control">
      <input
        part="input checkbox"
        id=${controlId}
        type="checkbox"
        .checked=${live(value === true)}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @change=${(event: Event) => set(targetOf(event).checked)}
      />
    </div>
    <label part="label" for=${controlId}>${labelOf(declaration)}</label>
    ${tools}`;
