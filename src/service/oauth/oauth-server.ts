import type { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type Provider from 'oidc-provider';
import type { Authenticator } from '../auth/authenticator.js';
import { openStores } from '../db/open-stores.js';
import type { ServiceEnv } from '../http/env.js';
import { AccessTokenVerifier } from './access-tokens.js';
import { SIGNING_KEYS_FILE } from './constants.js';
import { interactionRoutes } from './interactions.js';
import { providerHandler } from './node-bridge.js';
import { PasswordStore } from './passwords.js';
import { createProvider } from './provider.js';
import { resolveOAuthSettings, type OAuthSettings } from './settings.js';
import { currentPublicKeys, loadSigningKeys } from './signing-keys.js';

const PURGE_INTERVAL_MS = 3_600_000;

export interface OAuthServer {
  readonly issuer: string;
  /** `aud` of the access tokens, also the resource indicator. */
  readonly audience: string;
  /** Give to `createService({ authenticators })`: verifies the access tokens (kind `oauth`). */
  readonly authenticator: Authenticator;
  /** Give to `createService({ routes })`: mounts the server and its sign-in pages under the issuer's path. */
  readonly routes: (app: Hono<ServiceEnv>) => void;
  readonly provider: Provider;
  /** Call after the service's own `close()`. */
  close(): Promise<void>;
}

/**
 * The built-in OAuth 2.0 authorization server of the reference service (oidc-provider), on its own connection
 * to the service's database, where its signing keys are too (every API process shares them).
 *
 * @example
 * const oauth = await createOAuthServer({ dataDir, issuer: 'http://127.0.0.1:8787/oauth' });
 * const service = await createService({ dataDir, render, authenticators: [oauth.authenticator], routes: oauth.routes });
 * await service.listen(8787);
 * // on shutdown: await service.close(); oauth.close();
 */
export async function createOAuthServer(input: OAuthSettings): Promise<OAuthServer> {
  const settings = resolveOAuthSettings(input);
  const stores = await openStores(settings);
  await stores.oauth.purgeExpired(Date.now());
  const purge = setInterval(() => void stores.oauth.purgeExpired(Date.now()), PURGE_INTERVAL_MS);
  purge.unref();

  const keys = await loadSigningKeys(stores.settings, join(settings.dataDir, SIGNING_KEYS_FILE), settings.log);
  const { accounts } = stores;
  if (settings.devAutoLogin !== undefined) {
    await accounts.ensure(settings.devAutoLogin, Date.now());
    settings.log('oauth devAutoLogin is on: every sign-in is this account, without password or consent', {
      account: settings.devAutoLogin,
    });
  }
  const provider = createProvider({
    settings,
    jwks: keys.jwks,
    cookieKey: await stores.settings.getOrCreate('oauth_cookie_key', () => randomBytes(32).toString('base64url')),
    adapter: (model) => stores.oauth.adapter(model),
    accounts,
  });
  const passwords = new PasswordStore(stores.passwords);

  return {
    issuer: settings.issuer,
    audience: settings.audience,
    authenticator: new AccessTokenVerifier({
      issuer: settings.issuer,
      audience: settings.audience,
      publicKeys: keys.publicKeys,
      refreshKeys: () => currentPublicKeys(stores.settings),
      records: stores.oauth,
    }),
    routes: (app) => {
      interactionRoutes(app, { provider, accounts, passwords, settings });
      app.all(`${settings.mountPath}/*`, providerHandler(provider, settings.mountPath));
    },
    provider,
    async close() {
      clearInterval(purge);
      await stores.close();
    },
  };
}
