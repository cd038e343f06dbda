/**
 * `fx-sdk/node`: the SDK's static analysis in Node (`extractCompositionMetadata`, `lintComposition`, validation,
 * precedence, safety rules, the zod schemas). Registers a spec-compliant `DOMParser` first (parse5 + linkedom,
 * optional peer dependencies of fx-sdk: `npm i fx-sdk parse5 linkedom`). Elements and the compiler need a browser.
 */
import './runtime/dom-parser.node.js';

export * from './runtime/index.js';
export { declarationSchemas, declarationListSchema, variableDeclarationSchema } from './runtime/declaration-schemas.js';
// The /v3 client works in Node 20 as in browsers (global fetch).
export * from './client/index.js';
