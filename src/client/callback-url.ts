import { ErrorCode } from '../wire/constants.js';
import { isLoopbackHostname } from '../wire/loopback.js';
import { refused } from './errors.js';

/**
 * A render's `callback_url`, refused before anything is sent unless it is https: the service posts the render's
 * links there. Plain http passes only to a loopback host, which a development service may be set to allow.
 */
export function checkCallbackUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused(
      ErrorCode.parameterInvalid,
      `"callback_url" must be an https: URL, got ${JSON.stringify(String(value).slice(0, 100))}`,
      'callback_url',
    );
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHostname(url.hostname))) return value;
  throw refused(
    ErrorCode.callbackUrlInsecure,
    `"callback_url" must use https:, got ${JSON.stringify(url.protocol)}`,
    'callback_url',
  );
}
