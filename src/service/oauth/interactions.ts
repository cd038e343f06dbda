import type { Context, Hono } from 'hono';
import { clientAddress } from '../http/client-address.js';
import type Provider from 'oidc-provider';
import { errors, type InteractionDetails, type InteractionResults } from 'oidc-provider';
import type { AccountStore } from '../accounts/account-store.js';
import { ErrorCode } from '../../wire/constants.js';
import { readBodyLimited, requireMediaType } from '../http/body.js';
import type { ServiceEnv } from '../http/env.js';
import { InteractionPath, LoginField, OAuthScope } from './constants.js';
import { LoginThrottle } from './login-throttle.js';
import { nodeBindings } from './node-bridge.js';
import { consentPage, errorPage, loginPage, PAGE_HEADERS } from './pages.js';
import type { PasswordStore } from './passwords.js';
import type { ResolvedOAuthSettings } from './settings.js';
import { WorkLimit, WorkLimitBusyError } from './work-limit.js';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const FORM_BYTES = 8 * 1024;
const WRONG_CREDENTIALS = 'The account name or the password is wrong.';
const BUSY = 'The server is busy with other sign-ins. Try again in a moment.';
const BUSY_RETRY_SECONDS = 1;
const tooManyFailures = (seconds: number) =>
  `Too many wrong passwords for this account. Try again in ${Math.ceil(seconds / 60)} minute(s).`;

/** What each scope lets a client do, as the consent page says it. */
const PERMISSIONS: Record<string, string> = {
  [OAuthScope.renders]: 'upload projects, start and delete renders, download videos, see usage',
  [OAuthScope.openid]: 'know which account you are',
};

export interface InteractionParts {
  readonly provider: Provider;
  readonly accounts: AccountStore;
  readonly passwords: PasswordStore;
  readonly settings: ResolvedOAuthSettings;
}

/** A page of the interaction that cannot go on (expired, another browser, a cross-site post). */
class InteractionStop extends Error {
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The sign-in pages oidc-provider sends the browser to: login (account + password, checked against the scrypt
 * hash set by `admin.ts set-password`), then consent. Forms are bound to the interaction by its cookie
 * (SameSite=Lax, path of this interaction only) and the uid in the URL, and cross-origin posts are refused.
 * Wrong passwords are counted per account name and client address (429 with `Retry-After` past the limit, no
 * password checked), and password checks run a few at a time (503 with `Retry-After` when the line is full).
 * `devAutoLogin` answers both prompts for one account without showing anything.
 */
export function interactionRoutes(app: Hono<ServiceEnv>, parts: InteractionParts): void {
  const { provider, accounts, passwords, settings } = parts;
  const issuerOrigin = new URL(settings.issuer).origin;
  const at = (path: string, uid: string) => `${settings.mountPath}${path.replace(':uid', encodeURIComponent(uid))}`;
  const throttle = new LoginThrottle(settings.signIn.maxFailures, settings.signIn.failureWindow * 1000);
  const hashing = new WorkLimit(settings.signIn.hashConcurrency, settings.signIn.hashQueue);

  const load = async (c: Context<ServiceEnv>, prompt?: string): Promise<InteractionDetails> => {
    const { incoming, outgoing } = nodeBindings(c);
    let details: InteractionDetails;
    try {
      details = await provider.interactionDetails(incoming, outgoing);
    } catch (error) {
      if (error instanceof errors.SessionNotFound)
        throw new InteractionStop(
          400,
          'This sign-in has expired or was started in another browser. Go back to the app and sign in again.',
        );
      throw error;
    }
    if (details.uid !== c.req.param('uid'))
      throw new InteractionStop(
        400,
        'This sign-in page does not belong to the sign-in in progress. Go back to the app and sign in again.',
      );
    if (prompt !== undefined && details.prompt.name !== prompt)
      throw new InteractionStop(400, 'This step of the sign-in is already done. Go back to the app and sign in again.');
    return details;
  };

  const finish = async (c: Context<ServiceEnv>, result: InteractionResults) => {
    const { incoming, outgoing } = nodeBindings(c);
    const returnTo = await provider.interactionResult(incoming, outgoing, result, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  };

  const show = (
    c: Context<ServiceEnv>,
    html: string,
    status: 200 | 401 | 429 | 503 = 200,
    headers: Record<string, string> = {},
  ) => c.html(html, status, { ...PAGE_HEADERS, ...headers });

  const clientName = async (details: InteractionDetails) =>
    (details.params.client_id ? (await provider.Client.find(details.params.client_id))?.clientName : undefined) ??
    'An application';

  const grantConsent = async (details: InteractionDetails): Promise<InteractionResults> => {
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (!accountId || !clientId)
      throw new InteractionStop(400, 'This sign-in has no account. Go back to the app and sign in again.');
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    return { consent: { grantId: await grant.save() } };
  };

  const devAccountId = async () =>
    settings.devAutoLogin === undefined ? undefined : (await accounts.findByName(settings.devAutoLogin))?.id;

  /** A form post: same origin only (the cookie is SameSite=Lax already), urlencoded, small. */
  const readForm = async (c: Context<ServiceEnv>): Promise<URLSearchParams> => {
    // The request's own origin, or the issuer's when a proxy in front rewrites the Host header.
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin && origin !== issuerOrigin)
      throw new InteractionStop(403, 'This form was sent from another site and is refused.');
    requireMediaType(c.req.raw, FORM_CONTENT_TYPE);
    return new URLSearchParams(
      new TextDecoder().decode(await readBodyLimited(c.req.raw, FORM_BYTES, ErrorCode.bodyTooLarge, 'form')),
    );
  };

  const guarded = (handler: (c: Context<ServiceEnv>) => Promise<Response>) => async (c: Context<ServiceEnv>) => {
    try {
      return await handler(c);
    } catch (error) {
      if (!(error instanceof InteractionStop)) throw error;
      return c.html(errorPage('Sign-in stopped', error.message), error.status, PAGE_HEADERS);
    }
  };

  app.get(
    `${settings.mountPath}${InteractionPath.page}`,
    guarded(async (c) => {
      const details = await load(c);
      const devAccount = await devAccountId();
      switch (details.prompt.name) {
        case 'login':
          if (devAccount) return finish(c, { login: { accountId: devAccount } });
          return show(
            c,
            loginPage({
              clientName: await clientName(details),
              loginAction: at(InteractionPath.login, details.uid),
              abortAction: at(InteractionPath.abort, details.uid),
            }),
          );
        case 'consent': {
          if (devAccount) return finish(c, await grantConsent(details));
          const account = details.session && (await accounts.get(details.session.accountId));
          const requested = String(details.params.scope ?? '').split(' ');
          return show(
            c,
            consentPage({
              clientName: await clientName(details),
              accountName: account?.name ?? 'unknown',
              permissions: requested.flatMap((scope) => PERMISSIONS[scope] ?? []),
              confirmAction: at(InteractionPath.confirm, details.uid),
              abortAction: at(InteractionPath.abort, details.uid),
            }),
          );
        }
        default:
          throw new InteractionStop(400, 'This sign-in asks for a step this server does not offer.');
      }
    }),
  );

  app.post(
    `${settings.mountPath}${InteractionPath.login}`,
    guarded(async (c) => {
      const form = await readForm(c);
      const details = await load(c, 'login');
      const name = form.get(LoginField.account)?.trim() ?? '';
      // Behind a proxy that is not trusted every client has the proxy's address: the limit then applies per account.
      const peer = nodeBindings(c).incoming.socket.remoteAddress;
      const address = clientAddress(peer, c.req.header('x-forwarded-for'), settings.trustedProxies);
      const logged = { account: name.slice(0, 100), client: details.params.client_id };
      const again = async (error: string, status: 401 | 429 | 503, headers?: Record<string, string>) => {
        const page = loginPage({
          clientName: await clientName(details),
          loginAction: at(InteractionPath.login, details.uid),
          abortAction: at(InteractionPath.abort, details.uid),
          account: name,
          error,
        });
        return show(c, page, status, headers);
      };
      const waitMs = throttle.retryAfterMs(name, address, Date.now());
      if (waitMs > 0) {
        settings.log('oauth sign-in throttled', logged);
        const seconds = Math.ceil(waitMs / 1000);
        return again(tooManyFailures(seconds), 429, { 'retry-after': String(seconds) });
      }
      const account = name ? await accounts.findByName(name) : undefined;
      let matches: boolean;
      try {
        matches = await hashing.run(() => passwords.check(account?.id, form.get(LoginField.password) ?? ''));
      } catch (error) {
        if (!(error instanceof WorkLimitBusyError)) throw error;
        settings.log('oauth sign-in refused: busy', logged);
        return again(BUSY, 503, { 'retry-after': String(BUSY_RETRY_SECONDS) });
      }
      if (!matches) {
        throttle.recordFailure(name, address, Date.now());
        settings.log('oauth sign-in refused', logged);
        return again(WRONG_CREDENTIALS, 401);
      }
      throttle.recordSuccess(name, address);
      return finish(c, { login: { accountId: account!.id } });
    }),
  );

  app.post(
    `${settings.mountPath}${InteractionPath.confirm}`,
    guarded(async (c) => {
      await readForm(c);
      return finish(c, await grantConsent(await load(c, 'consent')));
    }),
  );

  app.post(
    `${settings.mountPath}${InteractionPath.abort}`,
    guarded(async (c) => {
      await readForm(c);
      await load(c);
      return finish(c, { error: 'access_denied', error_description: 'the user cancelled the sign-in' });
    }),
  );
}
