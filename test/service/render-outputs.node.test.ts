/**
 * Stills, GIFs, ranges, thumbnails, metadata and dry runs (issue 32) through the service, on the test database and
 * storage (SQLite and local files, or PostgreSQL and S3: helpers/database.ts); outputs decoded with ffprobe.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RenderOptions } from '../../src/render/types.js';
import { creditsFor } from '../../src/service/renders/billing.js';
import { RenderWarningCode } from '../../src/service/renders/output-plan.js';
import { dryRunSchema } from '../../src/wire/responses.js';
import { probe } from '../render/helpers.js';
import { createFfmpegRenderer, TEST_VIDEO } from './helpers/ffmpeg-renderer.js';
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

/** Bytes GIF writes for "loop": the NETSCAPE2.0 application extension (absent: played once). */
const LOOP_EXTENSION = 'NETSCAPE2.0';

describe('stills, GIFs, ranges, metadata and dry runs', () => {
  let test_: TestService;
  let assetId: string;
  let dir: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: { path: string; body: string }[] = [];
  /** The options of every render the renderer started (its output path names the render). */
  const started: RenderOptions[] = [];

  before(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    test_ = await startTestService({ render: createFfmpegRenderer({ onStart: (options) => started.push(options) }) });
    assetId = await uploadProject(test_, {
      'index.html': compositionHtml({ duration: 2, variables: TITLE_DECLARATIONS }),
      'long.html': compositionHtml({ duration: 20 }),
    });
    dir = await mkdtemp(join(tmpdir(), 'fx-outputs-'));
  });
  after(async () => {
    receiver.close();
    await test_.close();
    await rm(dir, { recursive: true, force: true });
  });

  const render = async (body: Record<string, unknown>) => {
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId, ...body }));
    assert.equal(response.status, 202, await response.clone().text());
    const submitted = (await response.json()) as RenderJson;
    const finished = await waitForFinished(test_, submitted.render_id);
    assert.equal(finished.status, 'completed', JSON.stringify(finished.failure));
    return { submitted, finished };
  };
  const options = (renderId: string) => started.find((found) => found.outputPath.includes(renderId))!;
  /** Downloads a link of the record to a file and probes it. */
  const download = async (url: unknown, name: string) => {
    const response = await fetch(String(url));
    assert.equal(response.status, 200);
    const path = join(dir, name);
    await writeFile(path, Buffer.from(await response.arrayBuffer()));
    return { path, contentType: response.headers.get('content-type'), probed: await probe(path) };
  };

  test('a png still: one frame at its time, with alpha, stored once and its own thumbnail', async () => {
    const { submitted, finished } = await render({ format: 'png', time: 1.5 });
    assert.deepEqual(
      [submitted.time, submitted.thumbnail_time, submitted.range, submitted.loop, submitted.fps],
      [1.5, null, null, null, 30],
    );
    assert.deepEqual(finished.output, {
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      frames: 1,
      duration: 0,
      start: 1.5,
    });
    assert.equal(finished.credits, creditsFor(1, '1080p'));
    assert.equal(options(submitted.render_id).time, 1.5);
    const { contentType, probed } = await download(finished.video_url, 'still.png');
    const [stream] = probed.streams;
    assert.equal(contentType, 'image/png');
    assert.deepEqual([stream?.codec_name, stream?.width, stream?.height], ['png', TEST_VIDEO.width, TEST_VIDEO.height]);
    // The composition's alpha kept: PNG's colour type with an alpha channel.
    assert.equal(stream?.pix_fmt, 'rgba');
    const path = (url: unknown) => new URL(String(url)).pathname;
    assert.equal(path(finished.thumbnail_url), path(finished.video_url));
    const keys = (await test_.storedKeys(`renders/${submitted.render_id}/`)).map(({ key }) => key);
    assert.deepEqual(keys, [`renders/${submitted.render_id}/video.png`]);
  });

  test('a jpeg still without time: the middle, opaque', async () => {
    const { finished } = await render({ format: 'jpeg' });
    assert.equal((finished.output as { start: number }).start, 1);
    const { contentType, probed } = await download(finished.video_url, 'still.jpeg');
    assert.equal(contentType, 'image/jpeg');
    assert.equal(probed.streams[0]?.codec_name, 'mjpeg');
  });

  test('a GIF: 15 fps by default, fps × duration frames, looping unless told once', async () => {
    const { submitted, finished } = await render({ format: 'gif' });
    assert.deepEqual([submitted.fps, submitted.loop], [15, true]);
    assert.deepEqual(finished.output, {
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      frames: 30,
      duration: 2,
      start: 0,
    });
    assert.equal(finished.credits, creditsFor(30, '1080p'));
    const looping = await download(finished.video_url, 'loop.gif');
    assert.equal(looping.contentType, 'image/gif');
    assert.deepEqual(
      [looping.probed.streams[0]?.codec_name, Number(looping.probed.streams[0]?.nb_read_frames)],
      ['gif', 30],
    );
    assert.ok((await readFile(looping.path)).includes(LOOP_EXTENSION));
    assert.equal(options(submitted.render_id).loop, true);

    const once = await render({ format: 'gif', fps: 10, loop: false });
    assert.equal(once.submitted.loop, false);
    const played = await download(once.finished.video_url, 'once.gif');
    assert.equal(Number(played.probed.streams[0]?.nb_read_frames), 20);
    assert.ok(!(await readFile(played.path)).includes(LOOP_EXTENSION));
  });

  test('a range: its frames only, starting at its start; the thumbnail time passed on', async () => {
    const { submitted, finished } = await render({
      fps: 10,
      range: { start: 0.5, end: 1.5 },
      thumbnail_time: 1.2,
    });
    assert.deepEqual([submitted.range, submitted.thumbnail_time], [{ start: 0.5, end: 1.5 }, 1.2]);
    assert.deepEqual(finished.output, {
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      frames: 10,
      duration: 1,
      start: 0.5,
    });
    assert.equal(finished.credits, creditsFor(10, '1080p'));
    const given = options(submitted.render_id);
    assert.deepEqual([given.range, given.thumbnailTime, given.time], [{ start: 0.5, end: 1.5 }, 1.2, undefined]);
    const { probed } = await download(finished.video_url, 'range.mp4');
    assert.equal(Number(probed.streams[0]?.nb_read_frames), 10);
    const thumbnail = await download(finished.thumbnail_url, 'range.jpg');
    assert.equal(thumbnail.contentType, 'image/jpeg');
  });

  test('metadata: as submitted in get, list and the webhook; null when none', async () => {
    const metadata = { order: 'A-1', lines: [1, 2], customer: { id: 7, tier: { name: 'gold' } } };
    const { submitted } = await render({ metadata, callback_url: `${receiverUrl}/done`, callback_id: 'c-1' });
    assert.deepEqual(submitted.metadata, metadata);
    const got = (await (await test_.api(`/v3/renders/${submitted.render_id}`)).json()) as RenderJson;
    assert.deepEqual(got.metadata, metadata);
    const list = (await (await test_.api('/v3/renders?limit=100')).json()) as { data: RenderJson[] };
    assert.deepEqual(list.data.find((found) => found.render_id === submitted.render_id)?.metadata, metadata);
    const delivery = await waitFor(() => received.find((found) => found.path === '/done'), 15_000, 'the webhook');
    const event = JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> };
    assert.deepEqual([event.type, event.data.callback_id, event.data.metadata], ['render.completed', 'c-1', metadata]);
    const { submitted: none } = await render({});
    assert.equal(none.metadata, null);
  });

  test('a dry run: 200 with what would render and its cost, nothing created, the key not recorded', async () => {
    const account = async () => ((await (await test_.api('/v3/account')).json()) as { usage: unknown }).usage;
    // Ids and states, not whole records: a record's signed links change with the second they are signed in (S3).
    const renders = async () =>
      (
        (await (await test_.api('/v3/renders?limit=100')).json()) as { data: { render_id: string; status: string }[] }
      ).data.map(({ render_id, status }) => [render_id, status]);
    const [usageBefore, rendersBefore, rowsBefore] = [await account(), await renders(), await test_.count('renders')];
    const dryRun = async (body: Record<string, unknown>, key: string) => {
      const response = await test_.api(
        '/v3/renders',
        jsonInit({ asset_id: assetId, dry_run: true, ...body }, { 'idempotency-key': key }),
      );
      assert.equal(response.status, 200);
      return dryRunSchema.parse(await response.json());
    };
    const answer = await dryRun({ format: 'gif', variables: { subtitle: 'x' } }, 'dry-1');
    assert.deepEqual(answer, {
      dry_run: true,
      format: 'gif',
      fps: 15,
      resolution: '1080p',
      aspect_ratio: '16:9',
      output: { width: 1920, height: 1080, frames: 30, duration: 2, start: 0 },
      credits: creditsFor(30, '1080p'),
      warnings: answer.warnings,
    });
    // The submit's own warnings (an undeclared variable), as it would record them.
    assert.deepEqual(
      answer.warnings.map((found) => found.code),
      ['undeclared'],
    );
    const large = await dryRun({ composition: 'long.html', format: 'gif', fps: 30 }, 'dry-2');
    assert.deepEqual(
      large.warnings.map((found) => [found.code, found.severity]),
      [[RenderWarningCode.gifLarge, 'warning']],
    );
    const still = await dryRun({ format: 'webp', time: 0.5, aspect_ratio: '1:1' }, 'dry-3');
    assert.deepEqual(still.output, { width: 1080, height: 1080, frames: 1, duration: 0, start: 0.5 });
    assert.deepEqual(
      [await account(), await renders(), await test_.count('renders')],
      [usageBefore, rendersBefore, rowsBefore],
    );
    assert.equal(await test_.count('idempotency_keys'), 0);
    // The real submit after it, with the same key, runs (a recorded dry run would have refused it as reused).
    const submit = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, format: 'gif', variables: { subtitle: 'x' } }, { 'idempotency-key': 'dry-1' }),
    );
    assert.equal(submit.status, 202);
    const submitted = (await submit.json()) as RenderJson;
    assert.deepEqual(submitted.warnings, answer.warnings);
    await waitForFinished(test_, submitted.render_id);
  });

  test('a dry run with a malformed Idempotency-Key is refused as the submit', async () => {
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, dry_run: true }, { 'idempotency-key': 'not a key' }),
    );
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'idempotency_key_invalid');
  });
});
