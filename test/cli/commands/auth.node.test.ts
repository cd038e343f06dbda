/** `fx auth login` through the real PKCE flow (a scripted browser), then status, refresh and logout. */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../../service/helpers/harness.js';
import {
  Browser,
  formAction,
  PASSWORD,
  startOAuthService,
  type OAuthTestService,
} from '../../service/helpers/oauth-flow.js';
import { baseEnv, eventsOf, fx, tempProject } from '../helpers.js';

/** What a user does in the browser: open the URL, sign in, consent; the redirect goes to fx's loopback port. */
async function completeInBrowser(service: OAuthTestService, url: string, account: string): Promise<void> {
  const browser = new Browser(service.url);
  let step = await browser.follow(url);
  for (let pages = 0; step.page && pages < 4; pages += 1) {
    const html = await step.page.text();
    assert.equal(step.page.status, 200, html.slice(0, 300));
    step = html.includes('name="password"')
      ? await browser.post(formAction(html, 'login'), { account, password: PASSWORD })
      : await browser.post(formAction(html, 'confirm'), {});
  }
  assert.ok(step.redirect, 'the sign-in ends with a redirect');
  assert.equal(step.redirect.hostname, '127.0.0.1');
  const landing = await fetch(step.redirect);
  assert.match(await landing.text(), /Signed in/);
}

describe('fx auth (browser sign-in)', () => {
  let service: OAuthTestService;
  let home: { path: string; cleanup: () => Promise<void> };
  let env: Record<string, string | undefined>;
  const credentials = async () =>
    JSON.parse(await readFile(join(home.path, '.fx', 'credentials'), 'utf8')) as Record<
      string,
      { accessToken?: string }
    >;
  const session = async () =>
    Object.entries(await credentials()).find(([key]) => key.startsWith('session:fx-cli@'))?.[1];

  before(async () => {
    service = await startOAuthService();
    await service.account('ada');
    home = await tempProject();
    env = baseEnv(home.path, { CLOUD_API_URL: service.url });
  });
  after(async () => {
    await service.close();
    await home.cleanup();
  });

  test('login prints the URL, catches the redirect on a loopback port and stores the session (0600)', async () => {
    const run = await fx(['auth', 'login', '--no-browser', '--json'], {
      env,
      onSpawn: (_child, output) => {
        void waitFor(() => /"url":"([^"]+)"/.exec(output.stdout())?.[1], 20_000, 'the sign-in URL').then((url) =>
          completeInBrowser(service, url, 'ada'),
        );
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const url = new URL(String(eventsOf(run, 'info')[0]!.url));
    assert.equal(url.searchParams.get('client_id'), 'fx-cli');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal((await stat(join(home.path, '.fx', 'credentials'))).mode & 0o777, 0o600);
    assert.ok((await session())?.accessToken);
  });

  test('status names the sign-in, the account and its usage; cloud commands use the session', async () => {
    const status = await fx(['auth', 'status', '--json'], { env });
    assert.equal(status.code, 0, status.stderr);
    const result = eventsOf(status, 'result')[0]!;
    assert.equal(result.source, 'oauth');
    assert.equal((result.account as { name: string }).name, 'ada');
    assert.equal((result.credential as { kind: string }).kind, 'oauth');
    assert.equal((await fx(['cloud', 'list'], { env })).code, 0);
  });

  test('refresh stores a new access token', async () => {
    const before = (await session())!.accessToken;
    const run = await fx(['auth', 'refresh', '--json'], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(eventsOf(run, 'result')[0]?.refreshed, true);
    assert.notEqual((await session())!.accessToken, before);
  });

  test('two fx processes refreshing at once: the file lock lets one spend the refresh token, the sign-in survives', async () => {
    const runs = await Promise.all([
      fx(['auth', 'refresh'], { env }),
      fx(['auth', 'refresh'], { env }),
      fx(['auth', 'refresh'], { env }),
    ]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    // A refresh token presented twice would have ended the grant: the stored session must still work.
    assert.equal((await fx(['auth', 'status'], { env })).code, 0);
    assert.equal((await fx(['auth', 'refresh'], { env })).code, 0);
  });

  test('logout revokes at the server and clears the file', async () => {
    const token = (await session())!.accessToken!;
    assert.equal(
      (await fetch(`${service.url}/v3/account`, { headers: { authorization: `Bearer ${token}` } })).status,
      200,
    );
    const run = await fx(['auth', 'logout', '--json'], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(eventsOf(run, 'result')[0]?.revoked, true);
    assert.equal(await session(), undefined);
    assert.equal(
      (await fetch(`${service.url}/v3/account`, { headers: { authorization: `Bearer ${token}` } })).status,
      401,
    );
    assert.equal((await fx(['auth', 'status'], { env })).code, 4);
  });

  test('a sign-in nobody completes times out: exit 4, auth_login_timeout, nothing stored', async () => {
    const run = await fx(['auth', 'login', '--no-browser', '--timeout', '0.5', '--json'], { env });
    assert.equal(run.code, 4, run.stdout + run.stderr);
    assert.equal(eventsOf(run, 'error')[0]?.code, 'auth_login_timeout');
    assert.equal(await session(), undefined);
  });
});
