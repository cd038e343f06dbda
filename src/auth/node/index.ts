/** Node-only parts of `src/auth`: the credentials file and the environment. Never imported by browser code. */
export { defaultCredentialsPath, FileCredentialStore } from './file-store.js';
export {
  CredentialEnv,
  DEFAULT_API_URL,
  resolveNodeCredentials,
  type ApiKeySource,
  type NodeCredentials,
  type ResolveOptions,
} from './resolve.js';
