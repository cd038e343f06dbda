import { authError, AuthErrorCode } from './errors.js';

/** The message the redirect page posts to the window that opened the sign-in popup. */
export const CALLBACK_MESSAGE = 'fx-auth-callback';
export interface CallbackMessage {
  readonly type: typeof CALLBACK_MESSAGE;
  /** The redirect page's whole URL (code, state, iss or error). */
  readonly location: string;
}

const isCallbackMessage = (data: unknown): data is CallbackMessage =>
  typeof data === 'object' &&
  data !== null &&
  (data as CallbackMessage).type === CALLBACK_MESSAGE &&
  typeof (data as CallbackMessage).location === 'string';

/** Whether `href` is the redirect URI with an authorization response on it. */
export function isRedirectResponse(href: string, redirectUri: string): boolean {
  const url = URL.parse(href);
  const expected = new URL(redirectUri);
  return (
    !!url &&
    url.origin === expected.origin &&
    url.pathname === expected.pathname &&
    (url.searchParams.has('state') || url.searchParams.has('code') || url.searchParams.has('error'))
  );
}

/**
 * The redirect URL the popup reached: posted by the redirect page (from its origin, by this popup), or read by
 * polling the popup once it is back on our origin (a redirect page that runs no script). Rejects with
 * `auth_popup_closed` when the popup is closed first.
 */
export function waitForPopupRedirect(popup: Window, redirectUri: string, pollMs: number): Promise<string> {
  const origin = new URL(redirectUri).origin;
  return new Promise((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearInterval(timer);
      window.removeEventListener('message', onMessage);
      settle();
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== popup || event.origin !== origin || !isCallbackMessage(event.data)) return;
      const { location } = event.data;
      finish(() => resolve(location));
    };
    const timer = setInterval(() => {
      if (popup.closed)
        return finish(() =>
          reject(authError(AuthErrorCode.popupClosed, 'the sign-in window was closed before the sign-in finished')),
        );
      let href: string | undefined;
      try {
        href = popup.location.href;
      } catch {
        return; // on the sign-in server's origin: not readable, not ours to read
      }
      if (isRedirectResponse(href, redirectUri)) finish(() => resolve(href));
    }, pollMs);
    window.addEventListener('message', onMessage);
  });
}
