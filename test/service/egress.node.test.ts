// DNS rebinding against the service's own requests (URL pages, webhooks), in production settings: the test's
// resolver answers a host with a "public" address (127.0.0.2) for the first lookup and a private one (127.0.0.1)
// after. Whatever the name says later, the service connects to the address it checked: the private server is
// never contacted, and a lookup that answers privately is refused with the usual error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { unsafeReplaceAddressRules } from '../../src/render/network/public-address.js';
import {
  httpTwins,
  PRIVATE_ADDRESS,
  PUBLIC_STAND_IN,
  scriptedRules,
  tcpTwins,
  type Twins,
} from '../render/rebinding.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  type TestService,
} from './helpers/harness.js';

interface ErrorJson {
  error: { code: string; param: string | null; message: string };
}

describe('outbound requests connect to the addresses checked', () => {
  let test_: TestService;
  let web: Twins;
  let hooks: Twins;
  let assetId: string;
  let restoreRules: () => void;
  const rules = scriptedRules({
    'page.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS],
    'inside.test': [PRIVATE_ADDRESS],
    'hook.test': [PUBLIC_STAND_IN, PRIVATE_ADDRESS],
    'private-hook.test': [PRIVATE_ADDRESS],
  });

  before(async () => {
    web = await httpTwins((side, request, response) => {
      if (request.url === '/hop.html')
        return void response.writeHead(302, { location: `http://inside.test:${web.port}/page.html` }).end();
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(side === 'public' ? compositionHtml() : '<p>private</p>');
    });
    hooks = await tcpTwins();
    restoreRules = unsafeReplaceAddressRules(rules);
    test_ = await startTestService({ allowPrivateNetworkUrls: false, allowInsecureCallbacks: false });
    assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
  });
  after(async () => {
    await test_.close();
    restoreRules();
    await Promise.all([web.close(), hooks.close()]);
  });

  test('a url page comes from the address checked; asked again, the host is refused at its new, private answer', async () => {
    const accepted = await test_.api('/v3/renders', jsonInit({ url: `http://page.test:${web.port}/page.html` }));
    assert.equal(accepted.status, 202, await accepted.clone().text());
    assert.deepEqual(
      web.public.requests.map((request) => [request.url, request.headers.host]),
      [['/page.html', `page.test:${web.port}`]],
    );

    const refused = await test_.api('/v3/renders', jsonInit({ url: `http://page.test:${web.port}/page.html` }));
    assert.equal(refused.status, 400);
    assert.deepEqual(((await refused.json()) as ErrorJson).error.code, 'url_not_allowed');
    assert.equal(rules.lookups.get('page.test'), 2, 'one lookup per submit, none for the connection');
    assert.equal(web.private.connections, 0);
  });

  test('a redirect to a host that resolves privately is refused at that hop', async () => {
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ url: `http://${PUBLIC_STAND_IN}:${web.port}/hop.html` }),
    );
    const body = (await response.json()) as ErrorJson;
    assert.deepEqual([response.status, body.error.code, body.error.param], [400, 'url_not_allowed', 'url']);
    assert.match(body.error.message, new RegExp(`"inside\\.test:${web.port}" does not`));
    assert.equal(web.private.connections, 0);
  });

  test('a webhook goes to the address checked; the retry, now resolving privately, is refused and recorded', async () => {
    const url = `https://hook.test:${hooks.port}/hook`;
    await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2, callback_url: url }));
    // The stand-in speaks no TLS, so the first attempt fails after its handshake began — at the public address.
    const [row] = await waitFor(
      async () => {
        const rows = await test_.rows(`SELECT attempts, last_error FROM webhook_deliveries WHERE url = ?`, url);
        return Number(rows[0]?.attempts ?? 0) >= 2 ? rows : undefined;
      },
      15_000,
      'a retried delivery',
    );
    assert.equal(hooks.public.connections, 1);
    assert.equal(hooks.public.firstBytes[0]?.[0], 0x16, 'a TLS handshake');
    assert.equal(hooks.private.connections, 0);
    assert.equal(row!.last_error, `"callback_url" host "hook.test" is not a public address`);
  });

  test('a webhook to a host that resolves privately is never sent', async () => {
    const url = `https://private-hook.test:${hooks.port}/hook`;
    await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2, callback_url: url }));
    const [row] = await waitFor(
      async () => {
        const rows = await test_.rows(`SELECT attempts, last_error FROM webhook_deliveries WHERE url = ?`, url);
        return Number(rows[0]?.attempts ?? 0) >= 1 ? rows : undefined;
      },
      15_000,
      'a failed delivery',
    );
    assert.equal(row!.last_error, `"callback_url" host "private-hook.test" is not a public address`);
    assert.equal(hooks.private.connections, 0);
  });
});
