/** Everything the browser SDK offers except the zod schemas (kept out of the classic-script bundle for size). */
export * from './runtime/index.js';
export { compileComposition, CompileIssueCode } from './runtime/compile.js';
export type { CompileOptions, CompiledComposition, HtmlEntry, CompileLimits } from './runtime/compile.js';
export * from './elements/index.js';
// Importing the SDK registers <fx-composition>, as a classic <script> would; the import also carries the tag's
// HTMLElementTagNameMap entry into the declarations (`querySelector('fx-composition')` is an FxComposition).
import './elements/define.js';
