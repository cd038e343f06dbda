/**
 * Chunk planning for ranges, stills and GIFs (issue 32), with stand-in chunk functions (the real ones are tested in
 * chunked-render.node.test.ts): a range is chunked within its frames; a still and a GIF are one render each. And a
 * job that cannot make its work folder fails its render.
 */
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChunkOptions } from '../../src/render/chunks/render.js';
import type { RenderOptions } from '../../src/render/types.js';
import type { ChunkRenderer } from '../../src/service/config.js';
import { FailureCode } from '../../src/wire/constants.js';
import { createFfmpegRenderer, TEST_VIDEO } from './helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitForFinished,
  type RenderJson,
  type TestService,
} from './helpers/harness.js';

describe('chunked renders of ranges, stills and GIFs', () => {
  let test_: TestService;
  let assetId: string;
  const chunkCalls: ChunkOptions[] = [];
  const renderCalls: RenderOptions[] = [];
  const fps = 10;

  // A chunk's file is a placeholder; the join returns what a join of the whole composition returns (its frames).
  const chunkRenderer: ChunkRenderer = {
    renderChunk: async (options) => {
      chunkCalls.push(options);
      await writeFile(options.outputPath, 'chunk');
      return {
        ...options.chunk,
        path: options.outputPath,
        format: options.format,
        quality: options.quality ?? 'standard',
        fps: options.fps ?? fps,
        width: TEST_VIDEO.width,
        height: TEST_VIDEO.height,
        frames: 100,
        duration: 10,
        audio: [],
        issues: [],
        capture: 'screenshot',
      };
    },
    // As the renderer's join: the output is what the chunks tile.
    joinChunks: async (options) => {
      await writeFile(options.outputPath, 'video');
      const thumbnailPath = options.outputPath.replace(/\.\w+$/, '.jpg');
      await writeFile(thumbnailPath, 'thumbnail');
      const from = Math.min(...options.chunks.map((chunk) => chunk.from));
      const frames = Math.max(...options.chunks.map((chunk) => chunk.to)) - from;
      return {
        videoPath: options.outputPath,
        thumbnailPath,
        width: TEST_VIDEO.width,
        height: TEST_VIDEO.height,
        fps,
        frames,
        duration: frames / fps,
        start: from / fps,
      };
    },
  };

  before(async () => {
    test_ = await startTestService({
      chunks: { workers: 2, minChunkFrames: 10 },
      chunkRenderer,
      render: createFfmpegRenderer({ onStart: (options) => renderCalls.push(options) }),
    });
    assetId = await uploadProject(test_, { 'index.html': compositionHtml({ duration: 10 }) });
  });
  after(() => test_.close());

  const render = async (body: Record<string, unknown>) => {
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps, ...body }));
    assert.equal(response.status, 202, await response.clone().text());
    const finished = await waitForFinished(test_, ((await response.json()) as RenderJson).render_id);
    assert.equal(finished.status, 'completed', JSON.stringify(finished.failure));
    return finished;
  };

  test('a range: chunks tile its frames of the composition, the output says its frames and start', async () => {
    const finished = await render({ range: { start: 2, end: 6 } });
    const mine = chunkCalls.filter((call) => call.outputPath.includes(finished.render_id));
    assert.deepEqual(
      mine.map((call) => call.chunk).sort((a, b) => a.from - b.from),
      [
        { from: 20, to: 40 },
        { from: 40, to: 60 },
      ],
    );
    // The chunk's frames are the composition's; the range tells the renderer what the output is.
    assert.ok(mine.every((call) => call.range?.start === 2 && call.range.end === 6));
    assert.deepEqual(finished.output, {
      width: TEST_VIDEO.width,
      height: TEST_VIDEO.height,
      frames: 40,
      duration: 4,
      start: 2,
    });
    assert.deepEqual(finished.progress, { stage: 'done', frames_done: 40, frames_total: 40 });
  });

  test('a GIF and a still are never chunked', async () => {
    const before = chunkCalls.length;
    const gif = await render({ format: 'gif' });
    const still = await render({ format: 'png', time: 3 });
    assert.equal(chunkCalls.length, before);
    assert.deepEqual(
      [gif, still].map((finished) => renderCalls.some((call) => call.outputPath.includes(finished.render_id))),
      [true, true],
    );
    assert.equal((gif.output as { frames: number }).frames, 100);
  });
});

describe('a render whose work folder cannot be made', () => {
  // Each job makes its folder inside its try: before, a failing mkdir went to the queue's log and left the render
  // `rendering` (a join: `muxing`) for ever, as a race with another run's removal did in CI.
  test('fails with render_failed, one job or chunked, never stays rendering', async () => {
    const service = await startTestService({ chunks: { workers: 2, minChunkFrames: 10 } });
    try {
      const assetId = await uploadProject(service, { 'index.html': compositionHtml({ duration: 4 }) });
      await rm(join(service.dataDir, 'work'), { recursive: true, force: true });
      await writeFile(join(service.dataDir, 'work'), 'not a folder');
      for (const fps of [1, 10]) {
        const response = await service.api('/v3/renders', jsonInit({ asset_id: assetId, fps }));
        assert.equal(response.status, 202, await response.clone().text());
        const finished = await waitForFinished(service, ((await response.json()) as RenderJson).render_id);
        assert.equal(finished.status, 'failed');
        assert.equal((finished.failure as { code: string }).code, FailureCode.failed);
      }
    } finally {
      await service.close();
    }
  });
});
