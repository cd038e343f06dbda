import { BROWSER_CLIENT_ID } from '../../auth/authorization-server.js';
import { createBrowserSignIn, type BrowserSignIn } from '../../auth/sign-in.js';
import type { Credentials } from '../../client/credentials.js';
import { CloudRenderStage, type CloudRenderProgress } from '../../client/progress.js';

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

function sessionFor(settings: SignInSettings): BrowserSignIn {
  const issuer = settings.issuer || new URL('/oauth', settings.serviceUrl).href;
  const clientId = settings.clientId || BROWSER_CLIENT_ID;
  const redirectUri = settings.redirectUri || location.href.split('#')[0]!;
  const key = JSON.stringify([issuer, clientId, redirectUri]);
  let session = sessions.get(key);
  if (!session) sessions.set(key, (session = createBrowserSignIn({ issuer, clientId, redirectUri })));
  return session;
}

/** Reads the stored session ahead of a click, so the click knows at once whether it must open the sign-in window. */
export function readSignedIn(settings: SignInSettings): void {
  sessionFor(settings)
    .signedIn()
    .catch(() => undefined); // the click reads it again and reports what fails
}

/**
 * Credentials of a signed-in user: the stored session when there is one, else a sign-in in a popup. Call it in the
 * click, before any `await`: the window is opened synchronously unless the session is known to be signed in (WebKit
 * lets a click open windows only until its first `await`), and closed again when a stored session turns up.
 */
export async function signedInCredentials(
  settings: SignInSettings,
  onProgress: (progress: CloudRenderProgress) => void,
): Promise<Credentials> {
  const session = sessionFor(settings);
  const popup = session.signedInNow ? undefined : session.openPopup();
  let signedIn: boolean;
  try {
    signedIn = await session.signedIn();
  } catch (error) {
    popup?.close();
    throw error;
  }
  if (signedIn) {
    popup?.close();
    return session;
  }
  onProgress({ stage: CloudRenderStage.signingIn });
  // Known signed in but the store said otherwise (a sign-out in another tab): opened now, which WebKit blocks;
  // the next click knows and opens it in time.
  await session.signInWithPopup({ window: popup });
  return session;
}
