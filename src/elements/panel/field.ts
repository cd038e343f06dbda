import { html, nothing, type SVGTemplateResult } from 'lit';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import { PanelText } from './constants.js';
import { Icon } from './icons.js';
import { INPUTS } from './inputs/index.js';
import { labelOf, type InputRenderer } from './inputs/types.js';
import { issueList } from './issue-list.js';

export interface FieldState {
  readonly declaration: VariableDeclaration;
  /** Its place in the list: DOM ids are the panel's own (variable ids may hold anything). */
  readonly index: number;
  readonly value: unknown;
  readonly overridden: boolean;
  readonly unused: boolean;
  readonly issues: readonly Issue[];
  /** Whether declarations can be edited (the composition's source was read). */
  readonly editable: boolean;
}

export interface FieldActions {
  set(value: unknown): void;
  reset(): void;
  edit(): void;
  remove(): void;
}

/** A small button showing only its glyph; `name` is what assistive technology and the tooltip say. */
const iconButton = (part: string, name: string, icon: SVGTemplateResult, click: () => void) =>
  html`<button
    part=${`button icon-button ${part}`}
    class="icon"
    type="button"
    aria-label=${name}
    title=${name}
    @click=${click}
  >
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">${icon}</svg>
  </button>`;

/**
 * One variable: its label and controls (by type), then on the label's row the `unused` badge and small buttons to
 * reset its value, edit or remove its declaration, then its issues. The panel's styles lay label, controls and
 * buttons out on a grid shared by every field (stacked when the panel is narrow).
 */
export function field(state: FieldState, actions: FieldActions) {
  const { declaration, index, issues } = state;
  const controlId = `variable-${index}`;
  const issuesId = `${controlId}-issues`;
  const label = labelOf(declaration);
  const tools = html`<span part="tools" class="tools">
    ${state.unused ? html`<span part="badge" title="No binding, style or script reads this variable">${PanelText.unused}</span>` : nothing}
    ${state.overridden ? iconButton('reset-field', `Reset ${label} to its default`, Icon.reset, actions.reset) : nothing}
    ${state.editable ? [iconButton('edit', `Edit ${label}`, Icon.edit, actions.edit), iconButton('remove', `Remove ${label}`, Icon.remove, actions.remove)] : nothing}
  </span>`;
  const render = INPUTS[declaration.type] as InputRenderer;
  return html`<div part="field" class="field" data-id=${declaration.id}>
    ${render({
      declaration,
      value: state.value,
      controlId,
      describedBy: issues.length > 0 ? issuesId : '',
      invalid: issues.some((found) => found.severity === 'error'),
      set: actions.set,
      tools,
    })}
    ${issues.length > 0 ? issueList(issuesId, issues) : nothing}
  </div>`;
}
