import Provider, { errors, type Adapter, type Client } from 'oidc-provider';
import type { AccountStore } from '../accounts/account-store.js';
import {
  GRANT_ID_CLAIM,
  LOOPBACK_CALLBACK_PATH,
  LOOPBACK_HOSTS,
  OAuthClientId,
  OAuthScope,
  SIGNING_ALG,
} from './constants.js';
import { errorPage, PAGE_HEADERS } from './pages.js';
import type { ResolvedOAuthSettings } from './settings.js';
import type { SigningJwk } from './signing-keys.js';

export interface ProviderParts {
  readonly settings: ResolvedOAuthSettings;
  readonly jwks: { keys: SigningJwk[] };
  /** Signs the provider's cookies; persisted so sign-ins in progress survive a restart. */
  readonly cookieKey: string;
  readonly adapter: (model: string) => Adapter;
  readonly accounts: AccountStore;
}

/** What oidc-provider hands to the hooks below; only the fields used here. */
interface HookContext {
  oidc?: { entities: { RotatedRefreshToken?: { remainingTTL: number } } };
  type: string;
  body: unknown;
  set(name: string, value: string): void;
}
interface DiscoveryContext {
  oidc?: { route: string };
  body?: { scopes_supported?: unknown };
}
interface GrantClient extends Client {
  grantTypeAllowed(type: string): boolean;
}

/** Where the CLI's loopback redirects go; any port is accepted for these (RFC 8252 §7.3, `native` clients). */
export const cliRedirectUris = () => LOOPBACK_HOSTS.map((host) => `http://${host}${LOOPBACK_CALLBACK_PATH}`);

/**
 * The oidc-provider instance: authorization code + PKCE (S256 only, required) for the two public clients,
 * refresh tokens always issued and rotated on every use (a reused one revokes the whole grant), one resource
 * server (`audience`, scope `renders`) whose access tokens are ES256 JWTs. Everything not needed is off:
 * dynamic registration, DPoP, PAR, userinfo, logout pages, the development interactions.
 */
export function createProvider(parts: ProviderParts): Provider {
  const { settings, accounts } = parts;
  const { lifetimes } = settings;
  const resourceServer = {
    scope: OAuthScope.renders,
    audience: settings.audience,
    accessTokenTTL: lifetimes.accessToken,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: SIGNING_ALG } },
  };
  const publicClient = {
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    id_token_signed_response_alg: SIGNING_ALG,
  };
  const cookie = { httpOnly: true, sameSite: 'lax', signed: true };

  const provider = new Provider(settings.issuer, {
    adapter: parts.adapter,
    jwks: parts.jwks,
    clients: [
      {
        ...publicClient,
        client_id: OAuthClientId.browser,
        client_name: 'fx in the browser',
        application_type: 'web',
        redirect_uris: [...settings.browserRedirectUris],
      },
      // `native`: oidc-provider then accepts the registered loopback URIs with any port, nothing else (§7.3).
      {
        ...publicClient,
        client_id: OAuthClientId.cli,
        client_name: 'the fx command line',
        application_type: 'native',
        redirect_uris: cliRedirectUris(),
      },
    ],
    clientDefaults: { ...publicClient, application_type: 'web' },
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    scopes: [OAuthScope.openid],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    cookies: {
      names: { session: 'fx_oauth_session', interaction: 'fx_oauth_interaction', resume: 'fx_oauth_resume' },
      keys: [parts.cookieKey],
      long: cookie,
      short: cookie,
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      // `fx auth logout` revokes its refresh token: the grant and its access tokens go with it.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: Client, token: { clientId: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => settings.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== settings.audience)
            throw new errors.InvalidTarget(`the only resource is ${settings.audience}`);
          return resourceServer;
        },
      },
    },
    extraTokenClaims: (_ctx: unknown, token: { grantId?: string }) => ({ [GRANT_ID_CLAIM]: token.grantId }),
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = await accounts.get(sub);
      return account && { accountId: account.id, claims: () => ({ sub: account.id }) };
    },
    // Always, without `offline_access`: a first-party CLI or page signing in to its own service wants to stay in.
    issueRefreshToken: (_ctx: unknown, client: GrantClient) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    expiresWithSession: () => false,
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${settings.mountPath}/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx: unknown, origin: string, client: Client) =>
      client.clientId === OAuthClientId.browser && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    ttl: {
      AccessToken: lifetimes.accessToken,
      AuthorizationCode: lifetimes.authorizationCode,
      IdToken: lifetimes.accessToken,
      Grant: lifetimes.grant,
      Interaction: lifetimes.interaction,
      Session: lifetimes.session,
      // Browser refresh tokens keep the first one's expiry across rotations (they live in page storage); the CLI's
      // slide. Either way the grant's lifetime caps them.
      RefreshToken: (ctx: HookContext | undefined, _token: unknown, client: Client) => {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        return rotated && client.applicationType === 'web' ? rotated.remainingTTL : lifetimes.refreshToken;
      },
    },
    renderError: async (ctx: HookContext, out: { error: string; error_description?: string }) => {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
      ctx.type = 'html';
      ctx.body = errorPage(
        'Sign-in failed',
        `${out.error}: ${out.error_description ?? 'the request cannot be completed'}`,
      );
    },
  });
  // Resource-server scopes are not provider scopes, so discovery would not list `renders` on its own.
  provider.use(async (ctx: DiscoveryContext, next: () => Promise<void>) => {
    await next();
    if (ctx.oidc?.route === 'discovery' && Array.isArray(ctx.body?.scopes_supported))
      ctx.body.scopes_supported = [...ctx.body.scopes_supported, OAuthScope.renders];
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) =>
    settings.log('oauth server error', { error: String(error) }),
  );
  provider.on('grant.revoked', (_ctx: unknown, grantId: string) => settings.log('oauth grant revoked', { grantId }));
  return provider;
}
