// The built-in authorization server end to end over real HTTP: sign-in pages, PKCE, codes, refresh rotation,
// loopback redirects, and the access tokens accepted by /v3.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  authorizeUrl,
  bearer,
  Browser,
  formAction,
  LoopbackReceiver,
  pkce,
  redeemCode,
  refresh,
  signIn,
  startOAuthService,
  tokenRequest,
  type OAuthTestService,
} from './helpers/oauth-flow.js';

const BROWSER_REDIRECT = 'http://127.0.0.1:5173/demo/';

interface AccountJson {
  account_id: string;
  name: string;
  credential: { id: string; kind: string };
  webhook_secret?: string;
  usage: Record<string, unknown>;
}

const jwtPart = (token: string, index: 0 | 1) =>
  JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString()) as Record<string, unknown>;

describe('OAuth authorization server', () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  let aliceId: string;
  before(async () => {
    test_ = await startOAuthService();
    aliceId = await test_.account('alice');
    await test_.account('bob');
    receiver = await LoopbackReceiver.start();
  });
  after(async () => {
    await receiver.close();
    await test_.close();
  });

  const newBrowser = () => new Browser(test_.url);
  const cliSignIn = (browser = newBrowser(), account = 'alice') =>
    signIn(browser, test_.issuer, {
      clientId: 'fx-cli',
      redirectUri: receiver.redirectUri,
      account,
      deliver: receiver.deliver,
    });
  const cliTokens = async () => {
    const signed = await cliSignIn();
    const { status, body } = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri);
    assert.equal(status, 200, JSON.stringify(body));
    return body as {
      access_token: string;
      refresh_token: string;
      id_token: string;
      expires_in: number;
      token_type: string;
      scope: string;
    };
  };
  const account = (token: string) => fetch(`${test_.url}/v3/account`, bearer(token));

  test('discovery under the issuer names the endpoints, S256 only, public clients only', async () => {
    const response = await fetch(`${test_.issuer}/.well-known/openid-configuration`);
    assert.equal(response.status, 200);
    const discovery = (await response.json()) as Record<string, unknown>;
    assert.equal(discovery.issuer, test_.issuer);
    assert.equal(discovery.authorization_endpoint, `${test_.issuer}/auth`);
    assert.equal(discovery.token_endpoint, `${test_.issuer}/token`);
    assert.equal(discovery.jwks_uri, `${test_.issuer}/jwks`);
    assert.equal(discovery.revocation_endpoint, `${test_.issuer}/token/revocation`);
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(discovery.token_endpoint_auth_methods_supported, ['none']);
    assert.deepEqual(discovery.response_types_supported, ['code']);
    assert.deepEqual(discovery.scopes_supported, ['openid', 'renders']);
    assert.equal(discovery.registration_endpoint, undefined);
  });

  test('the jwks holds one public EC key and no private part', async () => {
    const { keys } = (await (await fetch(`${test_.issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    assert.equal(keys.length, 1);
    assert.deepEqual([keys[0]!.kty, keys[0]!.crv, keys[0]!.alg, keys[0]!.d], ['EC', 'P-256', 'ES256', undefined]);
  });

  test('CLI: loopback sign-in → code at the listener → JWT access token → GET /v3/account as oauth', async () => {
    const signed = await cliSignIn();
    assert.equal(signed.redirect.searchParams.get('state'), 'st4te');
    assert.equal(signed.redirect.searchParams.get('iss'), test_.issuer);
    const { status, body } = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 600);
    assert.equal(typeof body.refresh_token, 'string');
    assert.equal(typeof body.id_token, 'string');
    const accessToken = body.access_token as string;
    assert.deepEqual([jwtPart(accessToken, 0).typ, jwtPart(accessToken, 0).alg], ['at+jwt', 'ES256']);
    const claims = jwtPart(accessToken, 1);
    assert.deepEqual(
      [claims.iss, claims.aud, claims.sub, claims.client_id, claims.scope],
      [test_.issuer, `${test_.url}/v3`, aliceId, 'fx-cli', 'renders'],
    );
    const response = await account(accessToken);
    assert.equal(response.status, 200);
    const json = (await response.json()) as AccountJson;
    assert.deepEqual(
      [json.account_id, json.name, json.credential.kind, json.credential.id],
      [aliceId, 'alice', 'oauth', claims.grant_id],
    );
  });

  test('GET /v3/account with an OAuth token has no webhook secret (API keys only)', async () => {
    const { access_token: token } = await cliTokens();
    const json = (await (await account(token)).json()) as AccountJson;
    assert.deepEqual(
      [json.credential.kind, Object.hasOwn(json, 'webhook_secret'), typeof json.usage],
      ['oauth', false, 'object'],
    );
  });

  test('browser client: sign-in with an exact redirect URI → token → GET /v3/account as oauth', async () => {
    const signed = await signIn(newBrowser(), test_.issuer, {
      clientId: 'fx-browser',
      redirectUri: BROWSER_REDIRECT,
      account: 'bob',
    });
    assert.equal(`${signed.redirect.origin}${signed.redirect.pathname}`, BROWSER_REDIRECT);
    const { status, body } = await redeemCode(test_.issuer, 'fx-browser', signed, BROWSER_REDIRECT);
    assert.equal(status, 200, JSON.stringify(body));
    const json = (await (await account(body.access_token as string)).json()) as AccountJson;
    assert.deepEqual([json.name, json.credential.kind, json.webhook_secret], ['bob', 'oauth', undefined]);
  });

  test('browser client: the token endpoint answers CORS for the redirect origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${test_.issuer}/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const ok = await preflight('http://127.0.0.1:5173');
    assert.equal(ok.headers.get('access-control-allow-origin'), 'http://127.0.0.1:5173');
    const signed = await signIn(newBrowser(), test_.issuer, {
      clientId: 'fx-browser',
      redirectUri: BROWSER_REDIRECT,
      account: 'bob',
    });
    const form = {
      grant_type: 'authorization_code',
      client_id: 'fx-browser',
      code: signed.code,
      redirect_uri: BROWSER_REDIRECT,
      code_verifier: signed.verifier,
    };
    const foreign = await fetch(`${test_.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams(form).toString(),
    });
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
  });

  test('a signed-in browser gets the next browser-client code without any page', async () => {
    const browser = newBrowser();
    await signIn(browser, test_.issuer, { clientId: 'fx-browser', redirectUri: BROWSER_REDIRECT, account: 'bob' });
    const step = await browser.follow(
      authorizeUrl(test_.issuer, {
        client_id: 'fx-browser',
        redirect_uri: BROWSER_REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(step.page, undefined);
    assert.ok(step.redirect?.searchParams.get('code'));
  });

  test('the CLI client (native) asks for consent again even when the browser is signed in', async () => {
    const browser = newBrowser();
    await cliSignIn(browser);
    const step = await browser.follow(
      authorizeUrl(test_.issuer, {
        client_id: 'fx-cli',
        redirect_uri: receiver.redirectUri,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
    );
    const html = await step.page!.text();
    assert.match(html, /Allow access\?/);
    assert.match(html, /<strong>alice<\/strong>/);
  });

  describe('PKCE', () => {
    const authorizeError = async (params: Record<string, string>) => {
      const step = await newBrowser().follow(
        authorizeUrl(test_.issuer, { client_id: 'fx-cli', redirect_uri: receiver.redirectUri, ...params }),
      );
      assert.ok(step.redirect, 'the error goes back to the client');
      assert.equal(step.redirect.searchParams.get('code'), null);
      return [step.redirect.searchParams.get('error'), step.redirect.searchParams.get('error_description')];
    };

    test('code_challenge_method plain → invalid_request, no code', async () => {
      const { verifier } = pkce();
      assert.deepEqual(await authorizeError({ code_challenge: verifier, code_challenge_method: 'plain' }), [
        'invalid_request',
        'not supported value of code_challenge_method',
      ]);
    });

    test('no code_challenge → invalid_request, no code', async () => {
      const [error, description] = await authorizeError({});
      assert.equal(error, 'invalid_request');
      assert.match(description ?? '', /PKCE/);
    });

    test('a code_challenge without its method → invalid_request', async () => {
      assert.deepEqual(await authorizeError({ code_challenge: pkce().challenge }), [
        'invalid_request',
        'code_challenge_method must be provided',
      ]);
    });

    test('a wrong code_verifier → invalid_grant', async () => {
      const signed = await cliSignIn();
      const { status, body } = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri, pkce().verifier);
      assert.deepEqual([status, body.error], [400, 'invalid_grant']);
    });

    test('no code_verifier → invalid_grant', async () => {
      const signed = await cliSignIn();
      const { status, body } = await tokenRequest(test_.issuer, {
        grant_type: 'authorization_code',
        client_id: 'fx-cli',
        code: signed.code,
        redirect_uri: receiver.redirectUri,
      });
      assert.deepEqual([status, body.error], [400, 'invalid_grant']);
    });
  });

  describe('codes', () => {
    test('a code works once; reusing it is refused and revokes what it gave', async () => {
      const signed = await cliSignIn();
      const first = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri);
      assert.equal(first.status, 200);
      const second = await redeemCode(test_.issuer, 'fx-cli', signed, receiver.redirectUri);
      assert.deepEqual([second.status, second.body.error], [400, 'invalid_grant']);
      const response = await account(first.body.access_token as string);
      assert.equal(response.status, 401);
      assert.match(
        response.headers.get('www-authenticate') ?? '',
        /error="invalid_token", error_description="[^"]*revoked/,
      );
      assert.equal(
        (await refresh(test_.issuer, 'fx-cli', first.body.refresh_token as string)).body.error,
        'invalid_grant',
      );
    });

    test('a code redeemed with another redirect_uri → invalid_grant', async () => {
      const signed = await cliSignIn();
      const { status, body } = await redeemCode(
        test_.issuer,
        'fx-cli',
        signed,
        `http://127.0.0.1:${receiver.port + 1}/callback`,
      );
      assert.deepEqual([status, body.error], [400, 'invalid_grant']);
    });

    test('a code redeemed by the other client → invalid_grant', async () => {
      const signed = await cliSignIn();
      const { status, body } = await redeemCode(test_.issuer, 'fx-browser', signed, receiver.redirectUri);
      assert.deepEqual([status, body.error], [400, 'invalid_grant']);
    });
  });

  describe('refresh tokens', () => {
    test('a refresh gives a new access and refresh token; the old refresh token is then refused', async () => {
      const tokens = await cliTokens();
      const refreshed = await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.notEqual(refreshed.body.refresh_token, tokens.refresh_token);
      assert.notEqual(refreshed.body.access_token, tokens.access_token);
      assert.equal((await account(refreshed.body.access_token as string)).status, 200);
      const reused = await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
      assert.deepEqual([reused.status, reused.body.error], [400, 'invalid_grant']);
    });

    test('reusing a rotated refresh token revokes the whole sign-in (newest refresh and access tokens too)', async () => {
      const tokens = await cliTokens();
      const refreshed = await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
      await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
      assert.equal(
        (await refresh(test_.issuer, 'fx-cli', refreshed.body.refresh_token as string)).body.error,
        'invalid_grant',
      );
      assert.equal((await account(refreshed.body.access_token as string)).status, 401);
    });

    test('a refresh token of another client → invalid_grant', async () => {
      const tokens = await cliTokens();
      const { status, body } = await refresh(test_.issuer, 'fx-browser', tokens.refresh_token);
      assert.deepEqual([status, body.error], [400, 'invalid_grant']);
    });

    test('a refreshed access token keeps the credential id (the grant) for idempotency scoping', async () => {
      const tokens = await cliTokens();
      const refreshed = await refresh(test_.issuer, 'fx-cli', tokens.refresh_token);
      const before_ = (await (await account(tokens.access_token)).json()) as AccountJson;
      const after_ = (await (await account(refreshed.body.access_token as string)).json()) as AccountJson;
      assert.equal(after_.credential.id, before_.credential.id);
    });

    test('revoking the refresh token (logout) ends the sign-in', async () => {
      const tokens = await cliTokens();
      const response = await fetch(`${test_.issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: 'fx-cli',
          token: tokens.refresh_token,
          token_type_hint: 'refresh_token',
        }).toString(),
      });
      assert.equal(response.status, 200);
      assert.equal((await refresh(test_.issuer, 'fx-cli', tokens.refresh_token)).body.error, 'invalid_grant');
      assert.equal((await account(tokens.access_token)).status, 401);
    });
  });

  describe('redirect URIs', () => {
    const refused = async (clientId: string, redirectUri: string) => {
      const response = await newBrowser().request(
        authorizeUrl(test_.issuer, {
          client_id: clientId,
          redirect_uri: redirectUri,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(response.status, 400, redirectUri);
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /invalid_redirect_uri/);
    };

    const HOSTILE_CLI_REDIRECTS = [
      'https://evil.example/callback',
      'http://evil.example/callback',
      'http://evil.example:8123/callback',
      'https://127.0.0.1:8123/callback',
      'http://127.0.0.2:8123/callback',
      'http://0x7f000001:8123/callback',
      'http://2130706433:8123/callback',
      'http://[0:0:0:0:0:0:0:1]:8123/callback',
      'http://localhost.evil.example:8123/callback',
      'http://127.0.0.1.nip.io:8123/callback',
      'http://user@127.0.0.1:8123/callback',
      'http://127.0.0.1:8123@evil.example/callback',
      'http://127.0.0.1:8123\\@evil.example/callback',
      'http://127.0.0.1:8123/callback/extra',
      'http://127.0.0.1:8123/callbackx',
      'http://127.0.0.1:8123/Callback',
      'http://127.0.0.1:8123/other/../callback',
      'http://127.0.0.1:8123/callback?next=https://evil.example',
      'http://127.0.0.1:8123/callback#fragment',
      'http://127.0.0.1:99999/callback',
      'HTTP://127.0.0.1:8123/callback',
      'javascript:alert(1)',
      'com.example.app:/callback',
    ];
    for (const uri of HOSTILE_CLI_REDIRECTS)
      test(`CLI redirect ${JSON.stringify(uri)} is refused`, () => refused('fx-cli', uri));

    for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
      test(`CLI loopback ${host} on a random port is accepted`, async () => {
        const port = 20_000 + Math.floor(Math.random() * 40_000);
        const response = await newBrowser().request(
          authorizeUrl(test_.issuer, {
            client_id: 'fx-cli',
            redirect_uri: `http://${host}:${port}/callback`,
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
        );
        assert.equal(response.status, 303);
        assert.match(response.headers.get('location') ?? '', /\/oauth\/interaction\//);
      });
    }

    test('the browser client takes its registered URI only, not another loopback port', () =>
      refused('fx-browser', 'http://127.0.0.1:5174/demo/'));
    test('the browser client refuses another path', () => refused('fx-browser', 'http://127.0.0.1:5173/demo/evil'));
    test('an unknown client is refused', async () => {
      const response = await newBrowser().request(
        authorizeUrl(test_.issuer, {
          client_id: 'fx-nope',
          redirect_uri: receiver.redirectUri,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(response.status, 400);
      assert.match(await response.text(), /invalid_client/);
    });
  });

  describe('audience', () => {
    test('a resource indicator other than the API → invalid_target, no code', async () => {
      const step = await newBrowser().follow(
        authorizeUrl(test_.issuer, {
          client_id: 'fx-cli',
          redirect_uri: receiver.redirectUri,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource: 'https://other.example/api',
        }),
      );
      assert.equal(step.redirect?.searchParams.get('error'), 'invalid_target');
      assert.equal(step.redirect?.searchParams.get('code'), null);
    });

    test('an ID token (audience: the client) is not accepted as an access token', async () => {
      const tokens = await cliTokens();
      const response = await account(tokens.id_token);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });
  });

  describe('sign-in pages', () => {
    const loginPage = async (browser: Browser) => {
      const step = await browser.follow(
        authorizeUrl(test_.issuer, {
          client_id: 'fx-cli',
          redirect_uri: receiver.redirectUri,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(step.page?.status, 200);
      assert.equal(step.page.headers.get('x-frame-options'), 'DENY');
      assert.match(step.page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      // `same-origin`, not `no-referrer`: with the latter browsers post forms with `Origin: null`.
      assert.equal(step.page.headers.get('referrer-policy'), 'same-origin');
      return step.page.text();
    };

    test('a wrong password shows the form again with an error, and no code is issued', async () => {
      const browser = newBrowser();
      const html = await loginPage(browser);
      const step = await browser.post(formAction(html, 'login'), { account: 'alice', password: 'wrong password' });
      assert.equal(step.redirect, undefined);
      assert.equal(step.page?.status, 401);
      const again = await step.page.text();
      assert.match(again, /role="alert">The account name or the password is wrong\./);
      assert.match(again, /value="alice"/);
      // The same interaction still completes with the right password.
      const retry = await browser.post(formAction(again, 'login'), {
        account: 'alice',
        password: 'correct horse battery',
      });
      assert.match(await retry.page!.text(), /Allow access\?/);
    });

    test('an unknown account gets the same answer as a wrong password', async () => {
      const browser = newBrowser();
      const step = await browser.post(formAction(await loginPage(browser), 'login'), {
        account: 'nobody',
        password: 'correct horse battery',
      });
      assert.equal(step.page?.status, 401);
      assert.match(await step.page.text(), /The account name or the password is wrong\./);
    });

    test('an account without a password cannot sign in', async () => {
      await test_.service.context.accounts.ensure('keyonly', Date.now());
      const browser = newBrowser();
      const step = await browser.post(formAction(await loginPage(browser), 'login'), {
        account: 'keyonly',
        password: '',
      });
      assert.equal(step.page?.status, 401);
    });

    test('account names are escaped in the page', async () => {
      const browser = newBrowser();
      const step = await browser.post(formAction(await loginPage(browser), 'login'), {
        account: '"><script>x()</script>',
        password: 'x',
      });
      const html = await step.page!.text();
      assert.doesNotMatch(html, /<script>/);
      assert.match(html, /&quot;&gt;&lt;script&gt;/);
    });

    test('cancel on the login page → access_denied at the client', async () => {
      const browser = newBrowser();
      const step = await browser.post(formAction(await loginPage(browser), 'abort'), {});
      assert.equal(step.redirect?.searchParams.get('error'), 'access_denied');
      assert.equal(step.redirect?.searchParams.get('code'), null);
    });

    test('deny on the consent page → access_denied at the client', async () => {
      const browser = newBrowser();
      const consent = await browser.post(formAction(await loginPage(browser), 'login'), {
        account: 'alice',
        password: 'correct horse battery',
      });
      const step = await browser.post(formAction(await consent.page!.text(), 'abort'), {});
      assert.equal(step.redirect?.searchParams.get('error'), 'access_denied');
    });

    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      test(`a login post with Origin ${origin} is refused`, async () => {
        const browser = newBrowser();
        const step = await browser.post(
          formAction(await loginPage(browser), 'login'),
          { account: 'alice', password: 'correct horse battery' },
          { origin },
        );
        assert.equal(step.page?.status, 403);
        assert.equal(step.redirect, undefined);
      });
    }

    test('a login post with its own Origin is accepted', async () => {
      const browser = newBrowser();
      const step = await browser.post(
        formAction(await loginPage(browser), 'login'),
        { account: 'alice', password: 'correct horse battery' },
        { origin: test_.url },
      );
      assert.match(await step.page!.text(), /Allow access\?/);
    });

    test('a login post without the interaction cookie (another browser) is refused', async () => {
      const html = await loginPage(newBrowser());
      const step = await newBrowser().post(formAction(html, 'login'), {
        account: 'alice',
        password: 'correct horse battery',
      });
      assert.equal(step.page?.status, 400);
      assert.match(await step.page.text(), /expired or was started in another browser/);
    });

    test('a login post to another interaction uid is refused', async () => {
      const browser = newBrowser();
      const html = await loginPage(browser);
      const other = formAction(html, 'login').replace(/interaction\/[^/]+\//, 'interaction/someone-else/');
      const step = await browser.post(other, { account: 'alice', password: 'correct horse battery' });
      assert.ok(step.page && step.page.status >= 400);
      assert.equal(step.redirect, undefined);
    });

    test('5 wrong passwords for one account from one address → 429 with Retry-After, even for the right one; others unaffected', async () => {
      await test_.account('carol');
      const browser = newBrowser();
      let html = await loginPage(browser);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const step = await browser.post(formAction(html, 'login'), { account: 'carol', password: `wrong ${attempt}` });
        assert.equal(step.page?.status, 401, `attempt ${attempt}`);
        html = await step.page.text();
      }
      for (const password of ['wrong 6', 'correct horse battery']) {
        const step = await browser.post(formAction(html, 'login'), { account: 'carol', password });
        assert.equal(step.page?.status, 429);
        const seconds = Number(step.page.headers.get('retry-after'));
        assert.ok(seconds > 890 && seconds <= 900, `Retry-After ${seconds}`);
        html = await step.page.text();
        assert.match(html, /role="alert">Too many wrong passwords for this account\. Try again in 15 minute\(s\)\./);
      }
      // Another account from the same address signs in.
      const other = await browser.post(formAction(html, 'login'), {
        account: 'alice',
        password: 'correct horse battery',
      });
      assert.match(await other.page!.text(), /Allow access\?/);
    });

    test('a login form that is not urlencoded → 415', async () => {
      const browser = newBrowser();
      const action = formAction(await loginPage(browser), 'login');
      const response = await browser.request(new URL(action, test_.url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 415);
    });
  });
});

describe('password checks at a time', () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  before(async () => {
    test_ = await startOAuthService({ oauth: { signIn: { hashConcurrency: 1, hashQueue: 0 } } });
    await test_.account('alice');
    receiver = await LoopbackReceiver.start();
  });
  after(async () => {
    await receiver.close();
    await test_.close();
  });

  test('a sign-in beyond the running and waiting checks → 503 with Retry-After, the running one goes on', async () => {
    const browsers = [0, 1, 2].map(() => new Browser(test_.url));
    const pages = await Promise.all(
      browsers.map(async (browser) => {
        const step = await browser.follow(
          authorizeUrl(test_.issuer, {
            client_id: 'fx-cli',
            redirect_uri: receiver.redirectUri,
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
        );
        return step.page!.text();
      }),
    );
    // Posted together: one scrypt check (≈ 0.1–0.2 s) runs, the others find no slot and no place in line.
    const steps = await Promise.all(
      browsers.map((browser, index) =>
        browser.post(formAction(pages[index]!, 'login'), { account: 'alice', password: 'correct horse battery' }),
      ),
    );
    const statuses = steps.map((step) => step.page?.status).sort();
    assert.deepEqual(statuses, [200, 503, 503]);
    const busy = steps.find((step) => step.page?.status === 503)!.page!;
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.match(await busy.text(), /The server is busy with other sign-ins\./);
  });
});
