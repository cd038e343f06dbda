// The sign-in pages in real Chromium: what fetch-driven tests cannot show — the Origin and cookies a browser
// really sends with the forms, and the redirect chain ending at the CLI's loopback listener.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser as Chromium } from 'playwright-core';
import {
  authorizeUrl,
  bearer,
  LoopbackReceiver,
  pkce,
  redeemCode,
  startOAuthService,
  type OAuthTestService,
} from './helpers/oauth-flow.js';

const CHROMIUM = '/usr/bin/chromium';

describe('sign-in in Chromium', { skip: existsSync(CHROMIUM) ? false : `no ${CHROMIUM}` }, () => {
  let test_: OAuthTestService;
  let receiver: LoopbackReceiver;
  let browser: Chromium;
  before(async () => {
    test_ = await startOAuthService();
    await test_.account('alice');
    receiver = await LoopbackReceiver.start();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await test_?.close();
  });

  test('wrong password, then the right one, consent → the browser lands on the loopback listener with a code', async () => {
    const page = await browser.newPage();
    const posts: { url: string; origin: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push({ url: request.url(), origin: request.headers().origin });
    });
    const { verifier, challenge } = pkce();
    const submit = 'button[type=submit]:not([formaction])';
    await page.goto(
      authorizeUrl(test_.issuer, {
        client_id: 'fx-cli',
        redirect_uri: receiver.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    await page.fill('#account', 'alice');
    await page.fill('#password', 'wrong password');
    await Promise.all([page.waitForNavigation(), page.click(submit)]);
    assert.equal(await page.locator('[role=alert]').textContent(), 'The account name or the password is wrong.');
    await page.fill('#password', 'correct horse battery');
    await Promise.all([page.waitForNavigation(), page.click(submit)]);
    assert.equal(await page.title(), 'Allow access?');
    await Promise.all([page.waitForURL(/\/callback\?/), page.click(submit)]);

    const landed = new URL(page.url());
    assert.equal(`${landed.origin}${landed.pathname}`, receiver.redirectUri);
    const code = landed.searchParams.get('code')!;
    const { status, body } = await redeemCode(
      test_.issuer,
      'fx-cli',
      { code, verifier, redirect: landed },
      receiver.redirectUri,
    );
    assert.equal(status, 200);
    assert.equal((await fetch(`${test_.url}/v3/account`, bearer(body.access_token as string))).status, 200);
    // Chromium sent the page's own origin with every form (not `null`), which the server checks.
    assert.equal(posts.length, 3);
    for (const post of posts) assert.equal(post.origin, test_.url, post.url);
  });
});
