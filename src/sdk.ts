/** Everything the browser SDK offers except the zod schemas (kept out of the classic-script bundle for size). */
export * from './runtime/index.js';
export { compileComposition, CompileIssueCode } from './runtime/compile.js';
export type { CompileOptions, CompiledComposition, HtmlEntry, CompileLimits } from './runtime/compile.js';
export * from './elements/index.js';
import { defineFxElements } from './elements/define.js';

// Importing the SDK registers <fx-composition>, as a classic <script> would.
defineFxElements();
