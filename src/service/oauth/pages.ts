import { LoginField } from './constants.js';

/** Security headers of every page of the sign-in interaction: no scripts, no framing, nothing cached or leaked. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // No form-action: after a submit the browser follows redirects to the client's redirect URI, another origin.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // Not `no-referrer`: browsers then send `Origin: null` with the form posts, which the origin check refuses.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0}
main{max-width:22rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
.actions{display:flex;gap:.5rem;margin-top:1.25rem}button{flex:1;padding:.6rem;font:inherit;cursor:pointer}
.error{color:#b91c1c;background:#fef2f2;padding:.5rem .75rem;border-radius:.25rem}ul{padding-left:1.25rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export interface LoginPage {
  readonly clientName: string;
  readonly loginAction: string;
  readonly abortAction: string;
  readonly account?: string;
  readonly error?: string;
}

export function loginPage(input: LoginPage): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    'Sign in to fx',
    `<p>${escapeHtml(input.clientName)} asks to use your fx account.</p>${error}
<form method="post" action="${escapeHtml(input.loginAction)}">
<label for="account">Account</label><input id="account" name="${LoginField.account}" autocomplete="username" required value="${escapeHtml(input.account ?? '')}"${input.account ? '' : ' autofocus'}>
<label for="password">Password</label><input id="password" name="${LoginField.password}" type="password" autocomplete="current-password" required${input.account ? ' autofocus' : ''}>
<div class="actions"><button type="submit">Sign in</button><button type="submit" formaction="${escapeHtml(input.abortAction)}" formnovalidate>Cancel</button></div>
</form>`,
  );
}

export interface ConsentPage {
  readonly clientName: string;
  readonly accountName: string;
  /** What each requested scope lets the client do, in words. */
  readonly permissions: readonly string[];
  readonly confirmAction: string;
  readonly abortAction: string;
}

export function consentPage(input: ConsentPage): string {
  const permissions = input.permissions.map((permission) => `<li>${escapeHtml(permission)}</li>`).join('');
  return page(
    'Allow access?',
    `<p>${escapeHtml(input.clientName)} asks to act as the fx account <strong>${escapeHtml(input.accountName)}</strong>:</p><ul>${permissions}</ul>
<form method="post" action="${escapeHtml(input.confirmAction)}">
<div class="actions"><button type="submit">Allow</button><button type="submit" formaction="${escapeHtml(input.abortAction)}">Deny</button></div>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}
