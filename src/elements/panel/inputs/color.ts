import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { COLOR_PATTERN } from '../../../runtime/constants.js';
import type { ColorDeclaration } from '../../../runtime/declarations.js';
import { groupLabel, groupLabelId, type InputRenderer, targetOf } from './types.js';

/** A color picker and a text entry for the same `#rrggbb` value; what the text holds is written as typed. */
export const colorInput: InputRenderer<ColorDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) => {
  const text = typeof value === 'string' ? value : '';
  const picked = COLOR_PATTERN.test(text) ? text.toLowerCase() : '#000000';
  const write = (event: Event) => set(targetOf(event).value);
  return html`<fieldset part="group" aria-labelledby=${groupLabelId(controlId)}>
    ${groupLabel(declaration, controlId)}
    <div part="control" class="control">
      <input
        part="input color-picker"
        id=${controlId}
        type="color"
        aria-label="Pick"
        .value=${live(picked)}
        aria-describedby=${describedBy}
        @input=${write}
      />
      <input
        part="input"
        id=${`${controlId}-text`}
        type="text"
        aria-label="Hex code"
        spellcheck="false"
        .value=${live(text)}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @input=${write}
      />
    </div>
    ${tools}
  </fieldset>`;
};
