import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError } from '../../../src/service/errors.js';
import { chunkableFrames } from '../../../src/service/jobs/chunk-planning.js';
import { creditsFor } from '../../../src/service/renders/billing.js';
import {
  GIF_BYTES_PER_PIXEL_FRAME,
  GIF_LARGE_BYTES,
  planOutput,
  RenderWarningCode,
} from '../../../src/service/renders/output-plan.js';
import type { RenderRequest } from '../../../src/service/renders/render-types.js';
import { RENDER_REQUEST } from '../helpers/database.js';

const request = (fields: Partial<RenderRequest> = {}): RenderRequest => ({ ...RENDER_REQUEST, ...fields });
const SIZE = { width: 1920, height: 1080 };

test('a video: the whole composition at the preset size, from 0, at its cost', () => {
  assert.deepEqual(planOutput(request(), { ...SIZE, duration: 2 }), {
    output: { width: 1920, height: 1080, frames: 60, duration: 2, start: 0 },
    credits: creditsFor(60, '1080p'),
    warnings: [],
  });
});

test('a range: its frames, starting at its start; 4k doubles the size and costs its multiplier', () => {
  const plan = planOutput(request({ resolution: '4k', range: { start: 0.5, end: 1.5 } }), { ...SIZE, duration: 2 });
  assert.deepEqual(plan.output, { width: 3840, height: 2160, frames: 30, duration: 1, start: 0.5 });
  assert.equal(plan.credits, creditsFor(30, '4k'));
});

test('a still: one frame, duration 0, at its time (snapped) or the middle; the size follows the aspect ratio', () => {
  const at = planOutput(request({ format: 'png', aspect_ratio: '9:16', time: 1.01 }), { duration: 2, ...SIZE });
  assert.deepEqual(at.output, { width: 1080, height: 1920, frames: 1, duration: 0, start: 1 });
  assert.equal(at.credits, creditsFor(1, '1080p'));
  const middle = planOutput(request({ format: 'jpeg' }), { ...SIZE, duration: 2 });
  assert.equal(middle.output?.start, 1);
});

test('no declared duration: nothing known yet, nothing refused (the renderer judges)', () => {
  assert.deepEqual(planOutput(request({ format: 'gif', fps: 15, time: null }), { ...SIZE, duration: undefined }), {
    output: null,
    credits: null,
    warnings: [],
  });
});

test('gif_large past the estimate, not below it', () => {
  const perFrame = 1920 * 1080 * GIF_BYTES_PER_PIXEL_FRAME;
  const largest = Math.floor(GIF_LARGE_BYTES / perFrame);
  const gif = (frames: number) => planOutput(request({ format: 'gif', fps: 1 }), { ...SIZE, duration: frames });
  assert.deepEqual(gif(largest).warnings, []);
  const [warning] = gif(largest + 1).warnings;
  assert.deepEqual(
    [warning?.code, warning?.severity, warning?.path],
    [RenderWarningCode.gifLarge, 'warning', ['format']],
  );
  // Other formats are not GIFs.
  assert.deepEqual(planOutput(request({ fps: 1 }), { ...SIZE, duration: largest + 1 }).warnings, []);
});

test('what does not fit the declared duration is refused with the wire codes and the parameter', () => {
  const refusal = (fields: Partial<RenderRequest>) => {
    try {
      planOutput(request(fields), { ...SIZE, duration: 2 });
    } catch (error) {
      assert.ok(error instanceof ServiceError);
      return { code: error.code, status: error.status, param: error.param };
    }
    return undefined;
  };
  assert.deepEqual(refusal({ format: 'png', time: 2 }), { code: 'time_outside_duration', status: 422, param: 'time' });
  assert.deepEqual(refusal({ range: { start: 1, end: 3 } }), {
    code: 'range_outside_duration',
    status: 422,
    param: 'range',
  });
  assert.deepEqual(refusal({ thumbnail_time: 5 }), {
    code: 'time_outside_duration',
    status: 422,
    param: 'thumbnail_time',
  });
  assert.equal(refusal({ format: 'png', time: 1.98 }), undefined, 'the last frame (59 of 60)');
});

test('chunks: a video over all its frames or its range; a still and a GIF never', () => {
  assert.deepEqual(chunkableFrames(request(), 600), { from: 0, to: 600 });
  assert.deepEqual(chunkableFrames(request({ range: { start: 5, end: 15 } }), 600), { from: 150, to: 450 });
  assert.equal(chunkableFrames(request({ format: 'gif', fps: 15 }), 600), undefined);
  assert.equal(chunkableFrames(request({ format: 'png' }), 600), undefined);
});
