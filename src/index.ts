/** fx-sdk: live, typed HTML video compositions. */
export * from './sdk.js';
// zod schemas for tools (editors, services); the element and the frame runtime never import them, and bundlers
// drop them when unused (they are built lazily, see declaration-schemas.ts).
export { declarationSchemas, declarationListSchema, variableDeclarationSchema } from './runtime/declaration-schemas.js';
