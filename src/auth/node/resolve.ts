import { parseHttpUrl } from '../authorization-server.js';
import { checkApiKey } from '../api-key.js';
import { StoreKey } from '../store.js';
import { defaultCredentialsPath, FileCredentialStore } from './file-store.js';

/** Environment variables read by {@link resolveNodeCredentials}, in the order API keys are looked for. */
export const CredentialEnv = {
  apiKey: 'CLOUD_API_KEY',
  /** Read when `CLOUD_API_KEY` is unset: the name other render services' tools use. */
  renderApiKey: 'RENDER_API_KEY',
  apiUrl: 'CLOUD_API_URL',
} as const;

/** The reference service on this machine (src/service/main-defaults.ts `DEFAULT_PORT`). */
export const DEFAULT_API_URL = 'http://127.0.0.1:8787';

export type ApiKeySource = typeof CredentialEnv.apiKey | typeof CredentialEnv.renderApiKey | 'file';

export interface NodeCredentials {
  /** `/v3` base URL: `CLOUD_API_URL`, else the file's `api-url` (when the key is the file's), else {@link DEFAULT_API_URL}. */
  readonly apiUrl: string;
  /** The API key to send, and where it came from; `undefined` when none was found. */
  readonly apiKey: { readonly value: string; readonly source: ApiKeySource } | undefined;
  /** The credentials file, e.g. for an `OAuthSession` of the CLI's sign-in. */
  readonly store: FileCredentialStore;
}

export interface ResolveOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default `~/.fx/credentials`. */
  readonly path?: string;
}

/**
 * Finds the credentials of a headless caller: `CLOUD_API_KEY`, then `RENDER_API_KEY`, then the credentials file
 * (`api-key`, with its `api-url`). An empty variable counts as unset; a key that cannot be sent is
 * `auth_api_key_invalid` naming where it came from. With a key in the environment the file is not read, so a broken
 * file does not stop a CI job that sets `CLOUD_API_KEY`.
 */
export async function resolveNodeCredentials(options: ResolveOptions = {}): Promise<NodeCredentials> {
  const env = options.env ?? process.env;
  const store = new FileCredentialStore(options.path ?? defaultCredentialsPath());
  const fromEnv = ([CredentialEnv.apiKey, CredentialEnv.renderApiKey] as const).find((name) => env[name]);
  // The file's URL goes with the file's credentials: with a key from the environment the file is not read at all.
  const file = fromEnv ? {} : await readCredentialsFile(store);
  const apiKey = fromEnv ? { value: checkApiKey(fromEnv, env[fromEnv]!), source: fromEnv } : file.apiKey;
  const envUrl = env[CredentialEnv.apiUrl];
  const apiUrl = envUrl ? parseApiUrl(CredentialEnv.apiUrl, envUrl) : (file.apiUrl ?? DEFAULT_API_URL);
  return { apiUrl, apiKey, store };
}

const parseApiUrl = (name: string, value: string) => parseHttpUrl(name, value).href.replace(/\/+$/, '');

async function readCredentialsFile(
  store: FileCredentialStore,
): Promise<{ apiKey?: NodeCredentials['apiKey']; apiUrl?: string }> {
  const key = await store.get(StoreKey.apiKey);
  const url = await store.get(StoreKey.apiUrl);
  const where = (name: string) => `${name} in ${store.path}`;
  return {
    ...(typeof key === 'string'
      ? { apiKey: { value: checkApiKey(where(StoreKey.apiKey), key), source: 'file' as const } }
      : {}),
    ...(typeof url === 'string' ? { apiUrl: parseApiUrl(where(StoreKey.apiUrl), url) } : {}),
  };
}
