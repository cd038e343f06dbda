/**
 * `fx-sdk/node`: the SDK's static analysis in Node (`extractCompositionMetadata`, `lintComposition`, validation,
 * precedence, safety rules, the zod schemas). Registers a spec-compliant `DOMParser` first (parse5 + linkedom,
 * optional peer dependencies of fx-sdk: `npm i fx-sdk parse5 linkedom`). Elements and the compiler need a browser.
 */
import './runtime/dom-parser.node.js';

export * from './runtime/index.js';
export { declarationSchemas, declarationListSchema, variableDeclarationSchema } from './runtime/declaration-schemas.js';
// The /v3 client and sign-in work in Node 20 as in browsers (global fetch); plus what only Node has: projects
// read from a folder, the credentials file and the environment (CLOUD_API_KEY, RENDER_API_KEY, CLOUD_API_URL).
export * from './client/index.js';
export { AuthErrorCode, BROWSER_CLIENT_ID, MemoryCredentialStore, OAuthSession } from './auth/index.js';
export type { AuthError, CredentialStore, LockRunner, SessionOptions, TokenRecord } from './auth/index.js';
export { readProjectDirectory, zipProjectDirectory } from './client/zip/directory.node.js';
export {
  CredentialEnv,
  DEFAULT_API_URL,
  defaultCredentialsPath,
  FileCredentialStore,
  LoopbackSignIn,
  resolveNodeCredentials,
  type ApiKeySource,
  type LoopbackSignInOptions,
  type NodeCredentials,
  type ResolveOptions,
} from './auth/node/index.js';
