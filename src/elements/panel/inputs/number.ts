import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { NumberDeclaration } from '../../../runtime/declarations.js';
import { labelOf, targetOf, type InputRenderer } from './types.js';

/**
 * A number input with the declared `min`, `max` and `step`. A number out of range is still written (the runtime
 * clamps it and reports `out-of-range`); an empty or unreadable entry writes nothing.
 */
export const numberInput: InputRenderer<NumberDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) =>
  html`<label part="label" for=${controlId}
      >${labelOf(declaration)}${declaration.unit ? ` (${declaration.unit})` : ''}</label
    >
    <div part="control" class="control">
      <input
        part="input"
        id=${controlId}
        type="number"
        .value=${live(typeof value === 'number' && Number.isFinite(value) ? String(value) : '')}
        min=${declaration.min ?? nothing}
        max=${declaration.max ?? nothing}
        step=${declaration.step ?? 'any'}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @input=${(event: Event) => {
          const number = targetOf(event).valueAsNumber;
          if (Number.isFinite(number)) set(number);
        }}
      />
    </div>
    ${tools}`;
