/**
 * The variables core as the SDK publishes it: what docs/sdk.md's table and DESIGN.md's public surface name. The
 * helpers behind it (constants, color grading, scoping, the HTML parser wrapper) stay internal: the element, the
 * frame runtime, the renderer and the service import those modules directly.
 */
export { Attr } from './constants.js';
export { FxError, isFxError, RuntimeErrorCode } from './errors.js';
export { DeclarationIssueCode, ValueIssueCode, BindingIssueCode, LayoutIssueCode } from './issues.js';
export type { Issue, IssuePath, IssueSeverity } from './issues.js';
export { parseVariableDeclarations } from './declarations.js';
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
export { validateVariables } from './values.js';
export type { VariableValues, FontValue, ImageValue, ValidateOptions } from './values.js';
export { resolveVariables } from './precedence.js';
export type { ResolveLayers, ResolvedVariables } from './precedence.js';
export { isSafeMediaUrl, sanitizeCssValue } from './safety.js';
export { applyBindings } from './bindings.js';
export { extractCompositionMetadata, MetadataIssueCode } from './metadata.js';
export type { CompositionMetadata } from './metadata.js';
export { lintComposition, LintCode } from './lint.js';
export type { LintFinding, LintOptions } from './lint.js';
