/** `src/auth`: sign-in (authorization code + PKCE), the signed-in session, API keys, credential stores. Browser-safe. */
export { saveApiKey, loadApiKey } from './api-key.js';
export { BROWSER_CLIENT_ID } from './authorization-server.js';
export { AuthErrorCode, type AuthError } from './errors.js';
export type { LockRunner } from './lock.js';
export { OAuthSession, type SessionOptions } from './session.js';
export { BrowserSignIn, createBrowserSignIn, type BrowserSignInOptions, type PopupOptions } from './sign-in.js';
export { openBrowserStore } from './store.idb.js';
export { MemoryCredentialStore, type CredentialStore } from './store.js';
export type { TokenRecord } from './tokens.js';
