import { html, nothing } from 'lit';
import type { VariableType } from '../../runtime/constants.js';
import type { UndeclaredRead } from './reads.js';

/** The ids the composition reads without declaring them, each with a one-click "Declare" (when editable). */
export function undeclaredList(
  reads: readonly UndeclaredRead[],
  declare: ((id: string, type: VariableType) => void) | undefined,
) {
  if (reads.length === 0) return nothing;
  return html`<div part="undeclared" class="undeclared">
    <p>Read by the composition but not declared:</p>
    <ul>
      ${reads.map(
        ({ id, type }) =>
          html`<li data-id=${id}>
            <code>${id}</code> (${type})
            ${declare ? html`<button part="button declare" type="button" aria-label=${`Declare ${id} as ${type}`} @click=${() => declare(id, type)}>Declare</button>` : nothing}
          </li>`,
      )}
    </ul>
  </div>`;
}
