import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { signWebhook } from '../../src/service/webhooks/signature.js';
import { retryDelay } from '../../src/service/webhooks/dispatcher.js';
import { FAIL_MARKER } from './helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitFor,
  type RenderJson,
  type TestService,
} from './helpers/harness.js';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answered: number;
}

/** A receiver as a customer would write it: verifies the Standard Webhooks signature itself. */
function verify(secret: string, received: Received): boolean {
  const id = String(received.headers['webhook-id']);
  const timestamp = String(received.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64');
  return String(received.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('webhooks', () => {
  let test_: TestService;
  let receiver: Server;
  let receiverUrl: string;
  let secret: string;
  let assetId: string;
  const received = new Map<string, Received[]>();
  /** Answers to give per callback path, in order; then 200. */
  const script = new Map<string, number[]>();

  before(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const answer = script.get(path)?.shift() ?? 200;
        received.set(path, [...(received.get(path) ?? []), { headers: request.headers, body, answered: answer }]);
        response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    test_ = await startTestService({ allowInsecureCallbacks: true });
    secret = ((await (await test_.api('/v3/account')).json()) as { webhook_secret: string }).webhook_secret;
    assetId = await uploadProject(test_, {
      'index.html': compositionHtml(),
      'fail.html': compositionHtml({ extra: FAIL_MARKER }),
    });
  });
  after(async () => {
    receiver.close();
    await test_.close();
  });

  const deliveries = (path: string, count: number) =>
    waitFor(
      () => ((received.get(path)?.length ?? 0) >= count ? received.get(path)! : undefined),
      15_000,
      `${count} deliveries to ${path}`,
    );

  test('render.completed is delivered, signed, with the callback id and a working video link — without polling', async () => {
    await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, fps: 4, callback_url: `${receiverUrl}/done`, callback_id: 'order-42' }),
    );
    const [delivery] = await deliveries('/done', 1);
    assert.ok(verify(secret, delivery!), 'signature verifies with the account secret');
    assert.match(String(delivery!.headers['webhook-id']), /^msg_/);
    assert.ok(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000) < 30);
    assert.equal(delivery!.headers['content-type'], 'application/json');
    const event = JSON.parse(delivery!.body) as {
      type: string;
      timestamp: string;
      data: { render_id: string; status: string; callback_id: string; video_url: string; credits: number };
    };
    assert.equal(event.type, 'render.completed');
    assert.deepEqual([event.data.status, event.data.callback_id, event.data.credits], ['completed', 'order-42', 0.07]);
    assert.equal((await fetch(event.data.video_url)).status, 200);
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
  });

  test('a failing first attempt is retried with the same webhook-id until it succeeds', async () => {
    script.set('/flaky', [500, 503]);
    await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2, callback_url: `${receiverUrl}/flaky` }));
    const attempts = await deliveries('/flaky', 3);
    assert.deepEqual(
      attempts.map((attempt) => attempt.answered),
      [500, 503, 200],
    );
    assert.equal(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size, 1);
    assert.ok(attempts.every((attempt) => verify(secret, attempt)));
    const [row] = await waitFor(async () => {
      const rows = await test_.rows(
        `SELECT state, attempts, last_status FROM webhook_deliveries WHERE url = ?`,
        `${receiverUrl}/flaky`,
      );
      return rows[0]?.state === 'delivered' ? rows : undefined;
    });
    assert.deepEqual(row, { state: 'delivered', attempts: 3, last_status: 200 });
  });

  test('render.failed carries the failure', async () => {
    const submitted = (await (
      await test_.api(
        '/v3/renders',
        jsonInit({
          asset_id: assetId,
          composition: 'fail.html',
          callback_url: `${receiverUrl}/failed`,
          callback_id: 'f-1',
          metadata: { order: 'A-7', lines: [1, 2], customer: { tier: 'gold' } },
        }),
      )
    ).json()) as RenderJson;
    const [delivery] = await deliveries('/failed', 1);
    const event = JSON.parse(delivery!.body) as { type: string; data: Record<string, unknown> };
    assert.equal(event.type, 'render.failed');
    assert.deepEqual(event.data, {
      render_id: submitted.render_id,
      status: 'failed',
      callback_id: 'f-1',
      metadata: { order: 'A-7', lines: [1, 2], customer: { tier: 'gold' } },
      credits: null,
      // The renderer's own message ("the composition is broken on purpose") stays in the service log.
      failure: {
        code: 'composition_broken',
        message: 'the render failed with "composition_broken"; the service log has the details',
      },
    });
    assert.ok(verify(secret, delivery!));
  });

  test('the signature matches the Standard Webhooks reference vector', () => {
    assert.equal(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  test('retry delays grow 4× from the base and stop at the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 9].map((attempts) => retryDelay(attempts, 5_000, 3_600_000)),
      [5_000, 20_000, 80_000, 320_000, 3_600_000],
    );
  });
});
