import type { Credentials } from './credentials.js';
import { ClientErrorCode, refused } from './errors.js';

/** Printable ASCII without spaces: anything else could not travel in a header, or would split it. */
const KEY_PATTERN = /^[\x21-\x7e]{1,512}$/;

/**
 * Credentials from an API key (`fx_live_…`), for servers, scripts and the CLI. The key lives in this object only:
 * nothing is stored. A 401 cannot be fixed by refreshing, so `refresh` answers false and the call fails with
 * `auth_required`.
 *
 * @example
 * const client = new FxClient({ baseUrl: 'https://render.example.com', credentials: apiKeyCredentials(process.env.CLOUD_API_KEY!) });
 */
export function apiKeyCredentials(key: string): Credentials {
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw refused(
      ClientErrorCode.optionInvalid,
      `the API key must be 1 to 512 printable characters without spaces, got ${typeof key === 'string' ? `${key.length} characters` : typeof key}`,
    );
  }
  const authorization = `Bearer ${key}`;
  return { authorization: async () => authorization, refresh: async () => false };
}
