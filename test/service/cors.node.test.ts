import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from './helpers/harness.js';

const ORIGIN = 'https://app.example';

describe('CORS: pages on any origin may call /v3 with a bearer credential', () => {
  let test: TestService;
  before(async () => (test = await startTestService()));
  after(() => test.close());

  it('answers a preflight without credentials, allowing the headers the client sends', async () => {
    const response = await fetch(`${test.url}/v3/renders`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    for (const header of ['authorization', 'content-type', 'idempotency-key']) {
      assert.match(response.headers.get('access-control-allow-headers') ?? '', new RegExp(header, 'i'));
    }
    assert.equal(response.headers.get('access-control-allow-credentials'), null, 'never cookies');
  });

  it('lets the page read answers, errors included, and the headers the client needs', async () => {
    const ok = await test.api('/v3/account', { headers: { origin: ORIGIN } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const refused = await fetch(`${test.url}/v3/account`, { headers: { origin: ORIGIN } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /retry-after/i);
  });

  it('does not open routes outside /v3', async () => {
    const response = await fetch(`${test.url}/elsewhere`, { headers: { origin: ORIGIN } });
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });
});
