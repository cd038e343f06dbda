/** Public names of `<fx-variables-panel>`, said once. */
export const FxVariablesPanelEvent = {
  /** Declarations were added, edited or removed (or an edit undone/redone): detail `{ declarations, html }`. */
  declarationsChange: 'declarationschange',
} as const;
export type FxVariablesPanelEvent = (typeof FxVariablesPanelEvent)[keyof typeof FxVariablesPanelEvent];

export const FxVariablesPanelAttribute = {
  for: 'for',
  projectDir: 'project-dir',
} as const;

/** Codes of errors the panel throws (its methods) or shows (the declaration form). */
export const FxVariablesPanelErrorCode = {
  /** The edited list is not valid declarations; the issues say why (codes of `parseVariableDeclarations`). */
  declarationsInvalid: 'declarations_invalid',
  /** The composition's HTML has no element to carry `data-composition-variables`. */
  declarationRootMissing: 'declaration_root_missing',
  /** The rewritten HTML did not read back as the declarations written (a markup the rewriter cannot place). */
  declarationsRewriteFailed: 'declarations_rewrite_failed',
  /** No composition source to edit: none bound, or its `src` could not be fetched. */
  sourceUnavailable: 'source_unavailable',
} as const;
export type FxVariablesPanelErrorCode = (typeof FxVariablesPanelErrorCode)[keyof typeof FxVariablesPanelErrorCode];

/** What the panel's badges and pill say. */
export const PanelText = {
  defaults: 'defaults',
  unused: 'unused',
  customValues: (count: number) => `${count} custom value${count === 1 ? '' : 's'}`,
} as const;
