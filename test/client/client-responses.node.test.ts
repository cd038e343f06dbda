// The client's edges with an injected fetch: malformed answers, retry arithmetic, option checks, and no timer
// left behind after an abort. No service runs in this file, so the process's timers are the client's alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiKeyCredentials } from '../../src/client/api-key.js';
import { FxApiError } from '../../src/client/errors.js';
import { FxClient } from '../../src/client/fx-client.js';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from '../../src/client/retry.js';

type Answer = Response | (() => Response) | Error;
/** A fetch that answers from a list (the last answer repeats) and records what was sent. */
function fakeFetch(...answers: Answer[]) {
  const sent: { url: string; init: RequestInit; headers: Headers }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init, headers: new Headers(init.headers) });
    if (init.signal?.aborted) throw init.signal.reason;
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer() : answer.clone();
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}
const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
const clientWith = (
  fetch: typeof globalThis.fetch,
  retry: ConstructorParameters<typeof FxClient>[0]['retry'] = { baseDelayMs: 1, maxDelayMs: 2 },
) => new FxClient({ baseUrl: 'http://service.test/', credentials: apiKeyCredentials('fx_live_test'), fetch, retry });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected a rejection'),
    (error: unknown) => {
      assert.ok(error instanceof FxApiError, `not an FxApiError: ${error}`);
      return error.code;
    },
  );

const RENDER = {
  render_id: 'rnd_a',
  status: 'queued',
  progress: { stage: 'queued', frames_done: 0, frames_total: null },
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: null,
  finished_at: null,
  attempts: 0,
  failure: null,
  credits: null,
  output: null,
  video_url: null,
  thumbnail_url: null,
  expires_at: null,
  asset_id: 'ast_a',
  url: null,
  page_url: null,
  composition: 'index.html',
  fps: 30,
  quality: 'standard',
  format: 'mp4',
  resolution: '1080p',
  aspect_ratio: '16:9',
  variables: {},
  strict_variables: false,
  allow_missing_files: false,
  callback_url: null,
  callback_id: null,
  warnings: [],
};

describe('malformed answers are response_invalid', () => {
  const cases: [string, Answer][] = [
    [
      'an HTML page with 200',
      () => new Response('<!doctype html><p>hello</p>', { headers: { 'content-type': 'text/html' } }),
    ],
    ['no content type', () => new Response(JSON.stringify(RENDER))],
    ['JSON that does not parse', json('{"render_id": "rnd_a",')],
    [
      'bytes that are not UTF-8',
      () => new Response(new Uint8Array([0x7b, 0xff, 0x7d]), { headers: { 'content-type': 'application/json' } }),
    ],
    ['a number where a string goes', json({ ...RENDER, render_id: 42 })],
    ['an fps as a string', json({ ...RENDER, fps: '30' })],
    ['an unknown status', json({ ...RENDER, status: 'exploded' })],
    ['a required field missing', json((({ warnings: _w, ...rest }) => rest)(RENDER))],
    ['an array', json([RENDER])],
    ['null', json('null')],
    ['a success status other than the documented one', json(RENDER, 203)],
    [
      'a declared length above the limit',
      () =>
        new Response('{}', {
          headers: { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) },
        }),
    ],
  ];
  for (const [name, answer] of cases) {
    test(name, async () => {
      const { fetch } = fakeFetch(answer);
      assert.equal(await codeOf(clientWith(fetch).getRender('rnd_a')), 'response_invalid');
    });
  }

  test('a huge JSON body is cut off at the limit, unread beyond it', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const huge = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled++;
            controller.enqueue(pulled === 1 ? new TextEncoder().encode('{"a":"') : chunk);
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const { fetch } = fakeFetch(huge);
    assert.equal(await codeOf(clientWith(fetch).getAccount()), 'response_invalid');
    assert.ok(pulled <= 34, `read ${pulled} MiB`);
  });

  test('a record from a service older than allow_missing_files reads as false', async () => {
    const { fetch } = fakeFetch(json((({ allow_missing_files: _a, ...rest }) => rest)(RENDER)));
    assert.equal((await clientWith(fetch).getRender('rnd_a')).allow_missing_files, false);
  });

  test('unknown fields are kept, not refused', async () => {
    const { fetch } = fakeFetch(json({ ...RENDER, shiny_new_field: { a: 1 } }));
    const render = await clientWith(fetch).getRender('rnd_a');
    assert.deepEqual((render as Record<string, unknown>).shiny_new_field, { a: 1 });
  });
});

describe('error answers', () => {
  test('the error body gives code, param, issues; status and retryable come from the status', async () => {
    const issue = { code: 'type-mismatch', severity: 'error', path: ['variables', 'n'], message: 'bad' };
    const { fetch } = fakeFetch(
      json({ error: { code: 'render_project_invalid', message: 'no', param: 'variables', issues: [issue] } }, 422),
    );
    const error = await clientWith(fetch)
      .createRender({ asset_id: 'ast_a' })
      .catch((error: FxApiError) => error);
    assert.ok(error instanceof FxApiError);
    assert.deepEqual(
      [error.code, error.status, error.param, error.retryable, error.issues],
      ['render_project_invalid', 422, 'variables', false, [issue]],
    );
  });

  test('an error status without the error body is http_error', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const error = await clientWith(fetch, false)
      .getAccount()
      .catch((error: FxApiError) => error);
    assert.deepEqual([error.code, error.status, error.retryable], ['http_error', 502, true]);
  });

  test('a redirect is not followed with the credential: it is an http_error', async () => {
    const { fetch, sent } = fakeFetch(
      () => new Response(null, { status: 302, headers: { location: 'http://elsewhere.test/' } }),
    );
    assert.equal(await codeOf(clientWith(fetch).getAccount()), 'http_error');
    assert.equal(sent[0]!.init.redirect, 'manual');
    assert.equal(sent[0]!.init.credentials, 'omit');
  });
});

describe('retries', () => {
  test('network errors are retried up to maxAttempts, then network_error (retryable)', async () => {
    const { fetch, sent } = fakeFetch(new TypeError('fetch failed'));
    const error = await clientWith(fetch, { baseDelayMs: 1, maxAttempts: 4 })
      .getAccount()
      .catch((error: FxApiError) => error);
    assert.deepEqual([error.code, error.retryable, sent.length], ['network_error', true, 4]);
  });

  test('an upload keeps one generated Idempotency-Key across its retries; the next upload gets another', async () => {
    const asset = {
      asset_id: 'ast_a',
      composition: 'index.html',
      file_count: 1,
      size_bytes: 1,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const { fetch, sent } = fakeFetch(new TypeError('fetch failed'), json({}, 503), json(asset, 201));
    const client = clientWith(fetch);
    await client.uploadAsset(new Uint8Array([1]));
    const keys = sent.map((request) => request.headers.get('idempotency-key'));
    assert.equal(new Set(keys).size, 1);
    assert.match(keys[0]!, /^fx-[0-9a-f]{32}$/);
    await client.uploadAsset(new Uint8Array([1]));
    assert.notEqual(sent.at(-1)!.headers.get('idempotency-key'), keys[0]);
  });

  test('a 4xx other than 408, 409 and 429 is not retried', async () => {
    const { fetch, sent } = fakeFetch(json({ error: { code: 'parameter_invalid', message: 'x', param: 'fps' } }, 400));
    assert.equal(await codeOf(clientWith(fetch).createRender({ asset_id: 'ast_a' })), 'parameter_invalid');
    assert.equal(sent.length, 1);
  });

  test('Retry-After: seconds, HTTP dates, and nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
    for (const nonsense of [null, '', '-1', '1.5', 'soon', '99999999999', '1e3'])
      assert.equal(parseRetryAfter(nonsense, now), undefined, String(nonsense));
  });

  test('backoff is full jitter under a cap that doubles', () => {
    assert.equal(
      backoffDelay(1, DEFAULT_RETRY, () => 0),
      0,
    );
    assert.equal(
      backoffDelay(1, DEFAULT_RETRY, () => 0.999),
      499,
    );
    assert.equal(
      backoffDelay(3, DEFAULT_RETRY, () => 0.999),
      1998,
    );
    assert.equal(
      backoffDelay(30, DEFAULT_RETRY, () => 0.999),
      19_980,
    );
  });

  test('an abort during a backoff wait rejects at once and leaves no timer behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const baseline = timers();
    const { fetch, sent } = fakeFetch(new TypeError('fetch failed'));
    const controller = new AbortController();
    const call = clientWith(fetch, { baseDelayMs: 60_000, maxDelayMs: 60_000, budgetMs: 600_000 }).getAccount({
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.ok(timers() > baseline, 'the client is waiting on a timer');
    const started = Date.now();
    controller.abort();
    assert.equal(await codeOf(call), 'aborted');
    assert.ok(Date.now() - started < 100);
    assert.equal(timers(), baseline);
    assert.equal(sent.length, 1);
  });

  test('an abort during a wait between polls leaves no timer behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const baseline = timers();
    const { fetch } = fakeFetch(json(RENDER));
    const controller = new AbortController();
    const waiting = clientWith(fetch).waitForRender('rnd_a', { pollInterval: 60_000, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    assert.equal(await codeOf(waiting), 'aborted');
    assert.equal(timers(), baseline);
  });
});

describe('options and credentials', () => {
  const badBases = [
    'javascript:alert(1)',
    'ftp://service.test',
    'http://user:pass@service.test',
    'http://service.test/?x=1',
    'not a url',
    '',
  ];
  for (const baseUrl of badBases) {
    test(`baseUrl ${JSON.stringify(baseUrl)} is refused`, () => {
      assert.throws(
        () => new FxClient({ baseUrl }),
        (error: FxApiError) => error.code === 'client_option_invalid',
      );
    });
  }

  test('a base URL with a path prefix keeps it, without a double slash', async () => {
    const { fetch, sent } = fakeFetch(json(RENDER));
    await new FxClient({ baseUrl: 'https://api.test/render/', fetch }).getRender('rnd_a');
    assert.equal(sent[0]!.url, 'https://api.test/render/v3/renders/rnd_a');
    assert.equal(sent[0]!.headers.get('authorization'), null);
  });

  for (const key of ['', 'fx_live_a\r\nx-evil: 1', 'with space', 42]) {
    test(`apiKeyCredentials(${JSON.stringify(key)}) is refused`, () => {
      assert.throws(
        () => apiKeyCredentials(key as string),
        (error: FxApiError) => error.code === 'client_option_invalid',
      );
    });
  }

  test('credentials that throw make auth_required, with the cause kept', async () => {
    const broken = new Error('storage is gone');
    const unauthorized = json({ error: { code: 'invalid_token', message: 'expired', param: null } }, 401);
    for (const credentials of [
      { authorization: async () => Promise.reject(broken), refresh: async () => true },
      { authorization: async () => 'Bearer old', refresh: async () => Promise.reject(broken) },
    ]) {
      const { fetch } = fakeFetch(unauthorized);
      const error = await new FxClient({ baseUrl: 'http://service.test', fetch, credentials })
        .getAccount()
        .catch((error: FxApiError) => error);
      assert.deepEqual([error.code, error.cause], ['auth_required', broken]);
    }
  });

  test('bad retry policies are refused', () => {
    for (const retry of [{ maxAttempts: 0 }, { baseDelayMs: -1 }, { budgetMs: Number.NaN }]) {
      assert.throws(
        () => new FxClient({ baseUrl: 'http://service.test', retry }),
        (error: FxApiError) => error.code === 'client_option_invalid',
      );
    }
  });
});

describe('request bodies JSON cannot carry', () => {
  test('variables with a cycle or a BigInt are refused with body_invalid, before any request', async () => {
    const { fetch, sent } = fakeFetch(json(RENDER, 202));
    const cyclic: Record<string, unknown> = { title: 'x' };
    cyclic.self = cyclic;
    for (const variables of [cyclic, { big: 10n }]) {
      assert.equal(await codeOf(clientWith(fetch).createRender({ asset_id: 'ast_a', variables })), 'body_invalid');
    }
    assert.equal(sent.length, 0);
  });

  test('createRender refuses a plain-http callback (but to a loopback host) before any request, as cloudRender does', async () => {
    const { fetch, sent } = fakeFetch(json(RENDER, 202));
    const create = (callback_url: string) => clientWith(fetch).createRender({ asset_id: 'ast_a', callback_url });
    assert.equal(await codeOf(create('http://hooks.example/done')), 'callback_url_insecure');
    assert.equal(sent.length, 0);
    await create('http://127.0.0.1:9000/done');
    assert.equal(sent.length, 1);
  });
});
