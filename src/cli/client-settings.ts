/**
 * The `fx` command's own environment variables (its `cloud` and `auth` commands), in the form of the service's
 * settings table: docs/service.md lists them after the service's (`npm run docs:settings`).
 */
import { CredentialEnv, DEFAULT_API_URL } from '../auth/node/resolve.js';
import { httpUrl, text } from '../service/settings/readers.js';
import { none, Secret, setting } from '../service/settings/table.js';

export const CLIENT_SETTINGS = {
  apiKey: setting({
    env: CredentialEnv.apiKey,
    type: 'API key',
    default: none,
    shownDefault: 'none: RENDER_API_KEY, then ~/.fx/credentials',
    roles: [],
    secret: Secret.whole,
    summary: 'the API key `fx cloud` commands send',
    read: text,
  }),
  renderApiKey: setting({
    env: CredentialEnv.renderApiKey,
    type: 'API key',
    default: none,
    shownDefault: 'none: ~/.fx/credentials',
    roles: [],
    secret: Secret.whole,
    summary: 'read when `CLOUD_API_KEY` is unset (the name other render services use)',
    read: text,
  }),
  apiUrl: setting({
    env: CredentialEnv.apiUrl,
    type: 'http(s) URL',
    default: DEFAULT_API_URL,
    roles: [],
    summary: "the `/v3` service `fx cloud` talks to (else the credentials file's `api-url`)",
    read: httpUrl,
  }),
} as const;
