import { API_KEY_RULE, isSendableApiKey } from '../wire/api-key.js';
import type { Credentials } from './credentials.js';
import { ClientErrorCode, refused } from './errors.js';

/**
 * Credentials from an API key (`fx_live_…`), for servers, scripts and the CLI. The key lives in this object only:
 * nothing is stored. A 401 cannot be fixed by refreshing, so `refresh` answers false and the call fails with
 * `auth_required`.
 *
 * @example
 * const client = new FxClient({ baseUrl: 'https://render.example.com', credentials: apiKeyCredentials(process.env.CLOUD_API_KEY!) });
 */
export function apiKeyCredentials(key: string): Credentials {
  if (!isSendableApiKey(key)) {
    throw refused(
      ClientErrorCode.optionInvalid,
      `the API key must be ${API_KEY_RULE}, got ${typeof key === 'string' ? `${key.length} characters` : typeof key}`,
    );
  }
  const authorization = `Bearer ${key}`;
  return { authorization: async () => authorization, refresh: async () => false };
}
