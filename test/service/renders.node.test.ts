import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { onS3 } from './helpers/storage.js';
import { renderError, RenderErrorCode } from '../../src/render/errors.js';
import type { RenderFunction, RenderOptions } from '../../src/render/types.js';
import {
  createFfmpegRenderer,
  FAIL_MARKER,
  ISSUE_MARKER,
  TEST_VIDEO,
  WORKED_AROUND,
} from './helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  TITLE_DECLARATIONS,
  uploadProject,
  waitFor,
  waitForFinished,
  type RenderJson,
  type TestService,
} from './helpers/harness.js';

const run = promisify(execFile);

async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,nb_read_frames,width,height',
    '-of',
    'json',
    file,
  ]);
  return (
    JSON.parse(stdout) as { streams: { codec_name: string; nb_read_frames: string; width: number; height: number }[] }
  ).streams[0]!;
}

interface CompletedRender extends RenderJson {
  video_url: string;
  thumbnail_url: string;
  expires_at: string;
  credits: number;
  progress: { stage: string; frames_done: number; frames_total: number };
  output: { width: number; height: number; frames: number; duration: number };
  attempts: number;
  started_at: string;
  finished_at: string;
}

/** The service's own `/v3/files` links; on S3 the links are presigned S3 URLs, tested in s3-storage.node.test.ts. */
const ownLinks = onS3 ? "the service's own signed links (on S3: presigned S3 URLs, s3-storage.node.test.ts)" : false;

describe('render lifecycle', () => {
  let test_: TestService;
  let clockOffset = 0;
  let assetId: string;
  let completed: CompletedRender;
  before(async () => {
    test_ = await startTestService({ concurrency: 4, signedUrlTtlSeconds: 60, now: () => Date.now() + clockOffset });
    assetId = await uploadProject(test_, {
      'index.html': compositionHtml({ variables: TITLE_DECLARATIONS, duration: 1 }),
      'fail.html': compositionHtml({ extra: FAIL_MARKER }),
      'issue.html': compositionHtml({ variables: TITLE_DECLARATIONS, extra: ISSUE_MARKER }),
      'fifteen-seconds.html': compositionHtml({ duration: 15 }),
    });
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 12, variables: { title: 'Hi' } }))
    ).json()) as RenderJson;
    completed = (await waitForFinished(test_, submitted.render_id)) as CompletedRender;
  });
  after(() => test_.close());

  test('completes with progress, timestamps, output, attempts and credits', () => {
    assert.equal(completed.status, 'completed', JSON.stringify(completed.failure));
    assert.deepEqual(completed.progress, { stage: 'done', frames_done: 12, frames_total: 12 });
    assert.deepEqual(completed.output, {
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      frames: 12,
      duration: 1,
      start: 0,
    });
    assert.equal(completed.attempts, 1);
    assert.ok(Date.parse(completed.started_at) <= Date.parse(completed.finished_at));
    // 12 frames = 1 s at 12 fps = 12/30 credit.
    assert.equal(completed.credits, 0.4);
  });

  test('the signed video link downloads the real video without credentials', async () => {
    const response = await fetch(completed.video_url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'video/mp4');
    const file = join(test_.dataDir, 'download.mp4');
    await writeFile(file, new Uint8Array(await response.arrayBuffer()));
    const stream = await probe(file);
    assert.deepEqual(
      [stream.codec_name, Number(stream.nb_read_frames), stream.width, stream.height],
      ['h264', 12, TEST_VIDEO.width, TEST_VIDEO.height],
    );
  });

  test('the signed thumbnail link serves a JPEG', async () => {
    const response = await fetch(completed.thumbnail_url);
    assert.equal(response.headers.get('content-type'), 'image/jpeg');
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual([bytes[0], bytes[1]], [0xff, 0xd8]);
  });

  describe('byte ranges of a signed link', { skip: ownLinks }, () => {
    let whole: Uint8Array;
    before(async () => {
      whole = new Uint8Array(await (await fetch(completed.video_url)).arrayBuffer());
    });

    test('the whole file says it takes ranges', async () => {
      const response = await fetch(completed.video_url);
      assert.deepEqual(
        [response.status, response.headers.get('accept-ranges'), response.headers.get('content-length')],
        [200, 'bytes', String(whole.length)],
      );
      await response.arrayBuffer();
    });

    const PARTS: { range: string; slice: (size: number) => [number, number] }[] = [
      { range: 'bytes=0-99', slice: () => [0, 99] },
      { range: 'bytes=100-', slice: (size) => [100, size - 1] },
      { range: 'bytes=-10', slice: (size) => [size - 10, size - 1] },
      { range: 'bytes=5-5', slice: () => [5, 5] },
      { range: 'bytes=10-99999999', slice: (size) => [10, size - 1] },
    ];
    for (const { range, slice } of PARTS) {
      test(`${range} → 206 with those bytes`, async () => {
        const [start, end] = slice(whole.length);
        const response = await fetch(completed.video_url, { headers: { range } });
        assert.equal(response.status, 206);
        assert.equal(response.headers.get('content-range'), `bytes ${start}-${end}/${whole.length}`);
        assert.equal(response.headers.get('content-length'), String(end - start + 1));
        assert.equal(response.headers.get('content-type'), 'video/mp4');
        assert.deepEqual(new Uint8Array(await response.arrayBuffer()), whole.slice(start, end + 1));
      });
    }

    for (const range of ['bytes=999999999-', 'bytes=5-4', 'bytes=-0', 'bytes=x-y']) {
      test(`${range} → 416 range_not_satisfiable with the size`, async () => {
        const response = await fetch(completed.video_url, { headers: { range } });
        assert.equal(response.status, 416);
        assert.equal(response.headers.get('content-range'), `bytes */${whole.length}`);
        const body = (await response.json()) as { error: { code: string; param: string } };
        assert.deepEqual([body.error.code, body.error.param], ['range_not_satisfiable', 'Range']);
      });
    }

    const WHOLE: [string, Record<string, string>][] = [
      ['several ranges', { range: 'bytes=0-1,5-6' }],
      ['another unit', { range: 'items=0-1' }],
      ['If-Range (no validator to compare)', { range: 'bytes=0-1', 'if-range': '"etag"' }],
    ];
    for (const [name, headers] of WHOLE) {
      test(`${name} → 200 with the whole file`, async () => {
        const response = await fetch(completed.video_url, { headers });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-range'), null);
        assert.equal((await response.arrayBuffer()).byteLength, whole.length);
      });
    }

    test('HEAD answers the headers and opens no file', async () => {
      // A video larger than one stream chunk (64 KiB): a stream opened for HEAD would stay open unread.
      const submitted = (await (
        await test_.api('/v3/renders', jsonInit({ asset_id: assetId, composition: 'fifteen-seconds.html', fps: 30 }))
      ).json()) as RenderJson;
      const large = (await waitForFinished(test_, submitted.render_id)) as CompletedRender;
      const size = (await (await fetch(large.video_url)).arrayBuffer()).byteLength;
      assert.ok(size > 96 * 1024, `the video must be larger than the stream's first read, got ${size} bytes`);
      const videoFds = async () => {
        const fds = await readdir('/proc/self/fd').catch(() => [] as string[]);
        const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
        return targets.filter((target) => target.endsWith(`${large.render_id}/video.mp4`)).length;
      };
      for (const [headers, status, length] of [
        [{}, 200, size],
        [{ range: 'bytes=0-9' }, 206, 10],
        [{ range: 'bytes=10-' }, 206, size - 10],
      ] as const) {
        const response = await fetch(large.video_url, { method: 'HEAD', headers });
        assert.deepEqual(
          [response.status, response.headers.get('content-length'), (await response.arrayBuffer()).byteLength],
          [status, String(length), 0],
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await videoFds(), 0);
    });

    test('a range of an expired link is still 403, before any range check', async () => {
      clockOffset = 61_000;
      try {
        const response = await fetch(completed.video_url, { headers: { range: 'bytes=999999999-' } });
        assert.equal(response.status, 403);
      } finally {
        clockOffset = 0;
      }
    });
  });

  test('a signed link refuses an Authorization header', { skip: ownLinks }, async () => {
    const response = await fetch(completed.video_url, { headers: { authorization: `Bearer ${test_.key}` } });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'credentials_not_accepted');
  });

  test('a tampered link → 403 signed_url_invalid', { skip: ownLinks }, async () => {
    const url = new URL(completed.video_url);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const response = await fetch(url);
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'signed_url_invalid');
  });

  test('a link to another file of the render → 403 signed_url_invalid', { skip: ownLinks }, async () => {
    const response = await fetch(completed.video_url.replace('/video.mp4', '/thumbnail.jpg'));
    assert.equal(response.status, 403);
  });

  test(
    'an expired link → 403 signed_url_expired; a new get returns a fresh link that works',
    { skip: ownLinks },
    async () => {
      const old = completed.video_url;
      clockOffset = 61_000;
      try {
        const expired = await fetch(old);
        assert.equal(expired.status, 403);
        assert.equal(((await expired.json()) as { error: { code: string } }).error.code, 'signed_url_expired');
        const fresh = (await (await test_.api(`/v3/renders/${completed.render_id}`)).json()) as CompletedRender;
        assert.notEqual(fresh.video_url, old);
        assert.equal((await fetch(fresh.video_url)).status, 200);
      } finally {
        clockOffset = 0;
      }
    },
  );

  test('a failing composition ends failed with the renderer code and no credits', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, composition: 'fail.html' }))
    ).json()) as RenderJson;
    const failed = await waitForFinished(test_, submitted.render_id);
    assert.equal(failed.status, 'failed');
    // An unknown code passes through; its message is a fixed one, the renderer's own is only logged.
    assert.deepEqual(failed.failure, {
      code: 'composition_broken',
      message: 'the render failed with "composition_broken"; the service log has the details',
    });
    assert.equal(failed.credits, null);
    assert.equal(failed.video_url, null);
  });

  test('compile problems the renderer worked around join the warnings of the record', async () => {
    const submitted = (await (
      await test_.api(
        '/v3/renders',
        jsonInit({ asset_id: assetId, composition: 'issue.html', fps: 2, variables: { extra: 1 } }),
      )
    ).json()) as RenderJson;
    const done = await waitForFinished(test_, submitted.render_id);
    assert.deepEqual(
      (done.warnings as { code: string }[]).map((found) => found.code),
      ['undeclared', WORKED_AROUND.code],
    );
  });

  test('4k renders cost 1.5×', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 30, resolution: '4k' }))
    ).json()) as RenderJson;
    const done = await waitForFinished(test_, submitted.render_id);
    assert.equal(done.credits, 1.5);
  });

  test('webm output is VP9', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 5, format: 'webm' }))
    ).json()) as RenderJson;
    const done = (await waitForFinished(test_, submitted.render_id)) as CompletedRender;
    assert.match(done.video_url, /\/video\.webm\?/);
    const response = await fetch(done.video_url);
    assert.equal(response.headers.get('content-type'), 'video/webm');
    const file = join(test_.dataDir, 'download.webm');
    await writeFile(file, new Uint8Array(await response.arrayBuffer()));
    assert.equal((await probe(file)).codec_name, 'vp9');
  });

  test('an alpha render has a PNG thumbnail, served as image/png', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2, format: 'mov' }))
    ).json()) as RenderJson;
    const done = (await waitForFinished(test_, submitted.render_id)) as CompletedRender;
    assert.match(done.thumbnail_url, /\/thumbnail\.png\?/);
    const response = await fetch(done.thumbnail_url);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await response.arrayBuffer()).slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });

  test('20 concurrent submits all complete', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 4, callback_id: `batch-${index}` })),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(20).fill(202),
    );
    const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as RenderJson).render_id));
    assert.equal(new Set(ids).size, 20);
    const finished = await Promise.all(ids.map((id) => waitForFinished(test_, id, 45_000)));
    assert.deepEqual(
      finished.map((render) => render.status),
      Array(20).fill('completed'),
    );
  });

  test('GET /v3/account reports the usage of this month', async () => {
    const account = (await (await test_.api('/v3/account')).json()) as {
      account_id: string;
      credential: { kind: string };
      webhook_secret: string;
      usage: { credits_used: number; renders_completed: number; renders_failed: number; renders_total: number };
    };
    assert.equal(account.account_id, test_.accountId);
    assert.equal(account.credential.kind, 'api_key');
    assert.match(account.webhook_secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(account.usage.renders_failed, 1);
    assert.equal(account.usage.renders_total, account.usage.renders_completed + account.usage.renders_failed);
    // 12 frames → 0.4, 450 frames → 15, 1 frame → 0.04, 4k 30 frames → 1.5, 5 frames → 0.17, mov 2 frames → 0.07, 20 × 4 frames → 20 × 0.14
    // (The 450 frames are the byte-range test's, skipped on S3.)
    const longRender = ownLinks ? 0 : 15;
    assert.equal(
      account.usage.credits_used,
      Math.round((0.4 + longRender + 0.04 + 1.5 + 0.17 + 0.07 + 20 * 0.14) * 100) / 100,
    );
  });
});

describe('list, delete and cancel', () => {
  let test_: TestService;
  let assetId: string;
  before(async () => {
    // Real-time frames: a 30 s composition would hold the only slot for 30 s unless deleting cancels it.
    test_ = await startTestService({ concurrency: 1, render: createFfmpegRenderer({ realtime: true }) });
    assetId = await uploadProject(test_, {
      'index.html': compositionHtml({ duration: 0.2 }),
      'long.html': compositionHtml({ duration: 30 }),
    });
  });
  after(() => test_.close());

  const listPage = async (query: string) =>
    (await (await test_.api(`/v3/renders${query}`)).json()) as { data: RenderJson[]; next_token: string | null };

  test('pages through renders newest first with an opaque token', async () => {
    const other = await test_.newKey('someone-else');
    await test_.api(
      '/v3/renders',
      jsonInit(
        { asset_id: await uploadProject(test_, { 'index.html': compositionHtml() }) },
        { authorization: `Bearer ${other}` },
      ),
    );
    const ids: string[] = [];
    for (let index = 0; index < 5; index++)
      ids.push(
        ((await (await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 1 }))).json()) as RenderJson)
          .render_id,
      );
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const page = await listPage(`?limit=2${token ? `&token=${encodeURIComponent(token)}` : ''}`);
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((render) => render.render_id));
      token = page.next_token;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
  });

  for (const [query, param] of [
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?token=garbage', 'token'],
  ] as const) {
    test(`refuses ${query} with parameter_invalid on "${param}"`, async () => {
      const response = await test_.api(`/v3/renders${query}`);
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: { code: string; param: string } };
      assert.deepEqual([body.error.code, body.error.param], ['parameter_invalid', param]);
    });
  }

  test('a soft-deleted render answers 404, leaves the list, and its links stop working', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 5 }))
    ).json()) as RenderJson;
    const done = (await waitForFinished(test_, submitted.render_id)) as CompletedRender;
    const deleted = await test_.api(`/v3/renders/${done.render_id}`, { method: 'DELETE' });
    assert.deepEqual([deleted.status, await deleted.json()], [200, { render_id: done.render_id, deleted: true }]);
    const get = await test_.api(`/v3/renders/${done.render_id}`);
    assert.equal(get.status, 404);
    assert.equal(((await get.json()) as { error: { code: string } }).error.code, 'render_not_found');
    const all = await listPage('?limit=100');
    assert.ok(!all.data.some((render) => render.render_id === done.render_id));
    const link = await fetch(done.video_url);
    assert.equal(link.status, 404);
    if (!onS3) assert.equal(((await link.json()) as { error: { code: string } }).error.code, 'file_not_found');
    assert.equal((await test_.api(`/v3/renders/${done.render_id}`, { method: 'DELETE' })).status, 404);
  });

  test('deleting a rendering render cancels its job', async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, composition: 'long.html', fps: 10 }))
    ).json()) as RenderJson;
    await waitFor(async () => {
      const render = (await (await test_.api(`/v3/renders/${submitted.render_id}`)).json()) as CompletedRender;
      return render.status === 'rendering' && render.progress.frames_done > 0 ? render : undefined;
    });
    assert.equal((await test_.api(`/v3/renders/${submitted.render_id}`, { method: 'DELETE' })).status, 200);
    // The queue frees its only slot: a next render runs and completes.
    const next = (await (await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2 }))).json()) as RenderJson;
    assert.equal((await waitForFinished(test_, next.render_id, 10_000)).status, 'completed');
    const row = await test_.service.context.renders.find(submitted.render_id);
    assert.equal(row, undefined);
  });

  test("another account's render is 404", async () => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 1 }))
    ).json()) as RenderJson;
    const other = await test_.newKey('third');
    const response = await test_.api(`/v3/renders/${submitted.render_id}`, {
      headers: { authorization: `Bearer ${other}` },
    });
    assert.equal(response.status, 404);
    assert.equal(
      (
        await test_.api(`/v3/renders/${submitted.render_id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${other}` },
        })
      ).status,
      404,
    );
  });
});

describe('render failures as clients see them', () => {
  let test_: TestService;
  let assetId: string;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: string[] = [];
  const logs: { message: string; details?: Record<string, unknown> }[] = [];
  const started: RenderOptions[] = [];
  // A renderer failing the way the real one does: FFmpeg's stderr tail and a server path in the message.
  const leakyRenderer: RenderFunction = async (options) => {
    started.push(options);
    throw renderError(
      RenderErrorCode.ffmpegFailed,
      `encoding the video: FFmpeg exited with code 1\n${options.outputPath}: Permission denied\n[libx264 @ 0x55d0] broken`,
    );
  };

  before(async () => {
    test_ = await startTestService({
      render: leakyRenderer,
      limits: { maxDurationSeconds: 60, maxFrames: 1_000 },
      log: (message, details) => logs.push({ message, details }),
    });
    assetId = await uploadProject(test_, { 'index.html': compositionHtml() });
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        deliveries.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    receiver.close();
    await test_.close();
  });

  const submit = async (composition: string) => {
    const submitted = (await (
      await test_.api('/v3/renders', jsonInit({ asset_id: assetId, composition, callback_url: receiverUrl }))
    ).json()) as RenderJson;
    const failed = await waitForFinished(test_, submitted.render_id);
    const webhook = await waitFor(
      () => deliveries.find((body) => body.includes(submitted.render_id)),
      10_000,
      'the webhook',
    );
    return { failed, webhook: JSON.parse(webhook) as { type: string; data: { failure: unknown } } };
  };

  test('the renderer code and a fixed message reach the record and the webhook; the detail stays in the log', async () => {
    const { failed, webhook } = await submit('index.html');
    const expected = { code: 'ffmpeg_failed', message: 'encoding the video failed' };
    assert.deepEqual([failed.status, failed.failure], ['failed', expected]);
    assert.deepEqual([webhook.type, webhook.data.failure], ['render.failed', expected]);
    for (const seen of [JSON.stringify(failed), JSON.stringify(webhook)]) {
      assert.ok(!seen.includes(test_.dataDir) && !seen.includes('libx264'), seen);
    }
    const logged = logs.find((line) => line.message === 'render failed' && line.details?.renderId === failed.render_id);
    assert.equal(logged?.details?.code, 'ffmpeg_failed');
    assert.match(String(logged?.details?.error), /Permission denied[\s\S]*libx264/);
    assert.ok(String(logged?.details?.error).includes(test_.dataDir));
  });

  test("the renderer gets the service's length limits and network rule", () => {
    const options = started.at(-1)!;
    assert.deepEqual(
      [options.maxDurationSeconds, options.maxFrames, options.unsafeAllowPrivateNetwork],
      [60, 1_000, true],
    );
  });
});

describe('url renders', () => {
  let test_: TestService;
  let origin: Server;
  let originUrl: string;
  before(async () => {
    test_ = await startTestService({ limits: { urlPageBytes: 64 * 1024, urlFetchTimeoutMs: 500 } });
    origin = createServer((request, response) => {
      if (request.url === '/page.html') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.5 }).replace(
            '<body>',
            '<head><title>t</title></head><body>',
          ),
        );
      } else if (request.url === '/forever.html') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(compositionHtml({ duration: 1e308 }));
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/page.html' }).end();
      } else if (request.url === '/huge.html') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<!doctype html><html><body>${'<p>filler</p>'.repeat(10_000)}</body></html>`);
      } else if (request.url === '/hang.html') {
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'), 3_000);
      } else if (request.url === '/image.png') {
        response.writeHead(200, { 'content-type': 'image/png' }).end('png');
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  after(async () => {
    origin.close();
    await test_.close();
  });

  test('renders a page fetched server-side, with a base href to its origin', async () => {
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ url: `${originUrl}/moved`, fps: 4, variables: { title: 'From URL' } }),
    );
    assert.equal(response.status, 202);
    const submitted = (await response.json()) as RenderJson;
    assert.deepEqual(
      [submitted.url, submitted.asset_id, submitted.composition],
      [`${originUrl}/moved`, null, 'index.html'],
    );
    const stored = await test_.readStored(`renders/${submitted.render_id}/project/index.html`);
    assert.match(stored ?? '', new RegExp(`<head><base href="${originUrl}/page.html"><title>`));
    assert.equal((await waitForFinished(test_, submitted.render_id)).status, 'completed');
  });

  test('validates the page variables → 422 render_project_invalid', async () => {
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ url: `${originUrl}/page.html`, variables: { title: false } }),
    );
    assert.equal(response.status, 422);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'render_project_invalid');
  });

  test('a page lasting 1e308 seconds → 422 composition_duration_too_long, nothing stored', async () => {
    const before = await test_.count('renders');
    const response = await test_.api('/v3/renders', jsonInit({ url: `${originUrl}/forever.html` }));
    assert.equal(response.status, 422);
    const body = (await response.json()) as { error: { code: string; param: string } };
    assert.deepEqual([body.error.code, body.error.param], ['composition_duration_too_long', 'composition']);
    assert.equal(await test_.count('renders'), before);
  });

  for (const [path, reason] of [
    ['/missing', 'a 404'],
    ['/image.png', 'a non-HTML answer'],
    ['/huge.html', 'a page above the size limit'],
    ['/hang.html', 'a page slower than the timeout'],
  ] as const) {
    test(`${reason} → 422 url_fetch_failed`, async () => {
      const response = await test_.api('/v3/renders', jsonInit({ url: `${originUrl}${path}` }));
      assert.equal(response.status, 422);
      const body = (await response.json()) as { error: { code: string; param: string } };
      assert.deepEqual([body.error.code, body.error.param], ['url_fetch_failed', 'url']);
      assert.equal(await test_.count('renders'), 1);
    });
  }
});
