/** `src/auth`: sign-in (authorization code + PKCE), the signed-in session, API keys, credential stores. Browser-safe. */
export { saveApiKey, loadApiKey, checkApiKey } from './api-key.js';
export { BROWSER_CLIENT_ID, DEFAULT_SCOPE } from './authorization-server.js';
export { AuthErrorCode, type AuthError } from './errors.js';
export { broadcastChannelLock, noLock, webLock, type LockRunner } from './lock.js';
export { pkceChallenge } from './pkce.js';
export { OAuthSession, type SessionOptions } from './session.js';
export {
  BrowserSignIn,
  createBrowserSignIn,
  POPUP_NAME,
  type BrowserSignInOptions,
  type PopupOptions,
} from './sign-in.js';
export { IDB_DATABASE, IDB_OBJECT_STORE, IndexedDbCredentialStore, openBrowserStore } from './store.idb.js';
export { MemoryCredentialStore, StoreKey, type CredentialStore } from './store.js';
export { EXPIRY_SKEW_MS, type TokenRecord } from './tokens.js';
