import { BROWSER_CLIENT_ID } from '../auth/authorization-server.js';
import { createBrowserSignIn, type BrowserSignIn } from '../auth/sign-in.js';
import type { Credentials } from '../client/credentials.js';
import { CloudRenderStage, type CloudRenderProgress } from '../client/progress.js';

export interface SignInSettings {
  /** The issuer; default: `/oauth` on the service's origin. */
  readonly issuer: string;
  readonly serviceUrl: string;
  readonly clientId: string;
  /** Default: this page without its fragment. */
  readonly redirectUri: string;
}

/** One session per issuer, client and redirect: every button of a page shares the sign-in (and its refreshes). */
const sessions = new Map<string, BrowserSignIn>();

/**
 * Credentials of a signed-in user: the stored session when there is one, else a sign-in in a popup (the button's
 * click is the user gesture that lets it open).
 */
export async function signedInCredentials(
  settings: SignInSettings,
  onProgress: (progress: CloudRenderProgress) => void,
): Promise<Credentials> {
  const issuer = settings.issuer || new URL('/oauth', settings.serviceUrl).href;
  const clientId = settings.clientId || BROWSER_CLIENT_ID;
  const redirectUri = settings.redirectUri || location.href.split('#')[0]!;
  const key = JSON.stringify([issuer, clientId, redirectUri]);
  let session = sessions.get(key);
  if (!session) sessions.set(key, (session = createBrowserSignIn({ issuer, clientId, redirectUri })));
  if (await session.signedIn()) return session;
  onProgress({ stage: CloudRenderStage.signingIn });
  await session.signInWithPopup();
  return session;
}
