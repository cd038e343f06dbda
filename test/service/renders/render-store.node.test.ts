import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toRender, type RenderTableRow } from '../../../src/service/renders/render-store.js';

/** A row as a service before stills, GIFs, ranges and metadata stored it. */
const OLD_ROW: RenderTableRow = {
  seq: 1,
  id: 'rnd_x',
  account_id: 'acct_x',
  credential_id: 'key_x',
  status: 'completed',
  request: JSON.stringify({
    asset_id: 'ast_x',
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
    callback_url: null,
    callback_id: null,
  }),
  warnings: '[]',
  project_key: 'assets/ast_x',
  stage: 'done',
  frames_done: 30,
  frames_total: 30,
  attempts: 1,
  created_at: 0,
  started_at: 1,
  finished_at: 2,
  failure_code: null,
  failure_message: null,
  video_key: 'renders/rnd_x/video.mp4',
  thumbnail_key: 'renders/rnd_x/thumbnail.jpg',
  output: JSON.stringify({ width: 1920, height: 1080, frames: 30, duration: 1 }),
  credits: 1,
  deleted_at: null,
  files_expired_at: null,
  files_removed_at: null,
};

test('a record stored before the fields existed reads them as their absence meant', () => {
  const render = toRender(OLD_ROW);
  const { allow_missing_files, time, thumbnail_time, range, loop, metadata } = render.request;
  assert.deepEqual(
    { allow_missing_files, time, thumbnail_time, range, loop, metadata },
    { allow_missing_files: false, time: null, thumbnail_time: null, range: null, loop: null, metadata: null },
  );
  assert.equal(render.output?.start, 0);
});

test('stored fields win over those defaults', () => {
  const request = { ...JSON.parse(OLD_ROW.request), format: 'gif', loop: false, metadata: { order: 1 } };
  const output = { width: 160, height: 90, frames: 10, duration: 1, start: 0.5 };
  const render = toRender({ ...OLD_ROW, request: JSON.stringify(request), output: JSON.stringify(output) });
  assert.deepEqual([render.request.loop, render.request.metadata, render.output], [false, { order: 1 }, output]);
});
