/** The variables core: pure, browser-safe, shared by the element, the frame runtime, the renderer and the service. */
export { Attr, VariableType, BINDABLE_SRC_TAGS, COLOR_PATTERN } from './constants.js';
export { FxError, isFxError, RuntimeErrorCode } from './errors.js';
export { DeclarationIssueCode, ValueIssueCode, BindingIssueCode } from './issues.js';
export type { Issue, IssuePath, IssueSeverity } from './issues.js';
export { parseVariableDeclarations, DECLARATION_SCHEMA } from './declarations.js';
export type {
  VariableDeclaration,
  StringDeclaration,
  NumberDeclaration,
  ColorDeclaration,
  BooleanDeclaration,
  EnumDeclaration,
  FontDeclaration,
  ImageDeclaration,
  ParsedDeclarations,
  EnumOption,
} from './declarations.js';
export { validateVariables, checkValue } from './values.js';
export type { VariableValues, FontValue, ImageValue, ValidateOptions } from './values.js';
export { resolveVariables } from './precedence.js';
export type { ResolveLayers, ResolvedVariables } from './precedence.js';
export { isSafeMediaUrl, safeMediaUrl, safeFontUrl, isBindableSrcTag, sanitizeCssValue } from './safety.js';
export { applyBindings, resolvedColorGrading, scalarText } from './bindings.js';
export { resolveColorGrading, colorGradingReference, colorGradingFilter, COLOR_GRADING_GROUPS } from './color-grading.js';
export { compositionOwner } from './scope.js';
export { parseHtml } from './html.js';
export { extractCompositionMetadata, MetadataIssueCode } from './metadata.js';
export type { CompositionMetadata } from './metadata.js';
export { lintComposition, LintCode } from './lint.js';
export type { LintFinding, LintOptions } from './lint.js';
