import { API_KEY_RULE, isSendableApiKey } from '../wire/api-key.js';
import { authError, AuthErrorCode } from './errors.js';
import { StoreKey, type CredentialStore } from './store.js';

/** Returns `value` if it can be sent as an API key; `name` is what the message calls it. */
export function checkApiKey(name: string, value: string): string {
  if (!isSendableApiKey(value))
    throw authError(
      AuthErrorCode.apiKeyInvalid,
      `"${name}" must be ${API_KEY_RULE}, got ${typeof value === 'string' ? `${value.length} characters that are not` : typeof value}`,
    );
  return value;
}

/**
 * Keeps an API key in `store`. A browser store persists it to disk for any script of the origin to read, so
 * IndexedDB takes one only with `unsafePersistInBrowser: true` (`auth_api_key_not_persisted` otherwise).
 */
export async function saveApiKey(
  store: CredentialStore,
  apiKey: string,
  options: { unsafePersistInBrowser?: boolean } = {},
): Promise<void> {
  if (store.kind === 'indexeddb' && options.unsafePersistInBrowser !== true) {
    throw authError(
      AuthErrorCode.apiKeyNotPersisted,
      'an API key is not kept in browser storage unless "unsafePersistInBrowser" is true; keep it in memory or use sign-in',
    );
  }
  await store.set(StoreKey.apiKey, checkApiKey('apiKey', apiKey));
}

export async function loadApiKey(store: CredentialStore): Promise<string | undefined> {
  const value = await store.get(StoreKey.apiKey);
  return typeof value === 'string' ? checkApiKey(StoreKey.apiKey, value) : undefined;
}
