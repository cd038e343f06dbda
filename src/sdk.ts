/** Everything the browser SDK offers except the zod schemas (kept out of the classic-script bundle for size). */
export * from './runtime/index.js';
export { compileComposition, CompileIssueCode } from './runtime/compile/compile.js';
export type { CompileOptions, CompiledComposition, HtmlEntry, CompileLimits } from './runtime/compile/compile.js';
export * from './elements/index.js';
// "Render this": the /v3 client (with zipping, cloudRender and batches) and sign-in, in browsers and in Node.
export * from './client/index.js';
export * from './auth/index.js';
// Export in the browser: no service, no sign-in.
export * from './export/index.js';
// Importing the SDK registers <fx-composition>, <fx-render-button> and <fx-variables-panel>, as a classic <script>
// would; the imports also carry the tags' HTMLElementTagNameMap entries into the declarations.
import './elements/composition/define.js';
import './elements/render-button/define.js';
import './elements/panel/define.js';
