import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { StringDeclaration } from '../../../runtime/declarations.js';
import { labelOf, targetOf, type InputRenderer } from './types.js';

/** A text input with the declared placeholder, and a length counter when a `maxLength` is declared. */
export const stringInput: InputRenderer<StringDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) => {
  const text = typeof value === 'string' ? value : '';
  const { maxLength } = declaration;
  const counterId = `${controlId}-count`;
  return html`<label part="label" for=${controlId}>${labelOf(declaration)}</label>
    <div part="control" class="control">
      <input
        part="input"
        id=${controlId}
        type="text"
        .value=${live(text)}
        placeholder=${declaration.placeholder ?? nothing}
        aria-describedby=${maxLength === undefined ? describedBy : `${counterId} ${describedBy}`}
        aria-invalid=${invalid ? 'true' : 'false'}
        @input=${(event: Event) => set(targetOf(event).value)}
      />
      ${
        maxLength === undefined
          ? nothing
          : html`<span part="counter" id=${counterId} class=${text.length > maxLength ? 'over' : ''}
              >${text.length} / ${maxLength}</span
            >`
      }
    </div>
    ${tools}`;
};
