/** Node-only parts of `src/auth`: the credentials file, the environment, loopback sign-in. Never imported by browser code. */
export { defaultCredentialsPath, FileCredentialStore } from './file-store.js';
export {
  CredentialEnv,
  DEFAULT_API_URL,
  resolveNodeCredentials,
  type ApiKeySource,
  type NodeCredentials,
  type ResolveOptions,
} from './resolve.js';
export {
  CLI_CLIENT_ID,
  DEFAULT_LOGIN_TIMEOUT_MS,
  LoopbackSignIn,
  type LoopbackSignInOptions,
} from './loopback-sign-in.js';
