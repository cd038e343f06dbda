import { html, type TemplateResult } from 'lit';
import type { VariableDeclaration } from '../../../runtime/declarations.js';

/** What an input renderer is given for one declared variable. */
export interface InputContext<Declaration extends VariableDeclaration = VariableDeclaration> {
  readonly declaration: Declaration;
  /** The value in effect (override, else default). */
  readonly value: unknown;
  /** DOM id of the main control (ids are the panel's own: variable ids may hold anything). */
  readonly controlId: string;
  /** Ids of what describes the control (its issues, a counter). */
  readonly describedBy: string;
  readonly invalid: boolean;
  /** Writes `value` as this variable's override. */
  readonly set: (value: unknown) => void;
  /** The field's badge and buttons: placed after the controls, inside a group's fieldset (they share its grid). */
  readonly tools: TemplateResult;
}

/** Renders the labelled controls of one variable type. */
export type InputRenderer<Declaration extends VariableDeclaration = VariableDeclaration> = (
  context: InputContext<Declaration>,
) => TemplateResult;

/** The name a variable is shown by. */
export const labelOf = (declaration: VariableDeclaration): string => declaration.label || declaration.id;

/** The id of a group's label: a group's fieldset is named by it (`aria-labelledby`). */
export const groupLabelId = (controlId: string): string => `${controlId}-label`;

/**
 * The label of a group of controls (color, font, image): a span naming its fieldset, not a `<legend>`, which WebKit
 * lays out apart from the fieldset's grid (the label then sat on a row of its own, above the controls).
 */
export const groupLabel = (declaration: VariableDeclaration, controlId: string): TemplateResult =>
  html`<span part="label" id=${groupLabelId(controlId)}>${labelOf(declaration)}</span>`;

/** The value of the control an `input`/`change` event came from. */
export const targetOf = (event: Event) => event.target as HTMLInputElement;
