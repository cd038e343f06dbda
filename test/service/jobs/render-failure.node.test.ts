// renderFailure (src/service/jobs/render-failure.ts): what clients and webhooks are told of a failure, and what
// only the log gets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderError, RenderErrorCode } from '../../../src/render/errors.js';
import { FxError } from '../../../src/runtime/errors.js';
import { renderFailure } from '../../../src/service/jobs/render-failure.js';

describe('renderFailure', () => {
  const SECRET_PATH = '/srv/fx/.fx/service/work/rnd_x/video.mp4';
  const CASES: [string, unknown, { code: string; message: string }][] = [
    [
      'FFmpeg with a stderr tail and a path',
      renderError(
        RenderErrorCode.ffmpegFailed,
        `encoding: FFmpeg exited with code 1\n${SECRET_PATH}: Permission denied`,
      ),
      { code: 'ffmpeg_failed', message: 'encoding the video failed' },
    ],
    [
      'a browser crash',
      renderError(RenderErrorCode.browserCrashed, `the page crashed while rendering\n[1234:5678:ERROR:${SECRET_PATH}]`),
      {
        code: 'browser_crashed',
        message: 'the browser crashed while rendering; try again, or simplify the composition',
      },
    ],
    [
      'a compile error',
      Object.assign(new Error(`composition "http://127.0.0.1:4242/index.html" has no element`), {
        code: 'composition_invalid',
      }),
      {
        code: 'composition_invalid',
        message: 'the entry composition could not be compiled; it needs an element with "data-composition-id"',
      },
    ],
    [
      'a missing file',
      new FxError(
        'project_file_missing',
        '<img src> in "index.html" names "http://127.0.0.1:4242/s3cret/x.png", which…',
      ),
      {
        code: 'project_file_missing',
        message:
          'a file the composition names is not in the project; "fx lint" or "fx cloud render --dry-run" lists which',
      },
    ],
    [
      'an image too large to inline',
      new FxError('image_too_large', `"http://127.0.0.1:4242/s3cret/big.png" is 61865984 bytes`),
      {
        code: 'image_too_large',
        message:
          'an <img crossorigin> of the composition is larger than the compiler inlines (4 MiB); make it smaller, or drop "crossorigin"',
      },
    ],
    [
      'an error without a code',
      new Error(`EACCES: permission denied, open '${SECRET_PATH}'`),
      { code: 'render_failed', message: 'the render failed' },
    ],
    ['a string', SECRET_PATH, { code: 'render_failed', message: 'the render failed' }],
    [
      'a code that is not one',
      Object.assign(new Error('x'), { code: `bad code ${SECRET_PATH}` }),
      { code: 'render_failed', message: 'the render failed' },
    ],
    [
      'an unknown well-formed code',
      Object.assign(new Error(SECRET_PATH), { code: 'gpu_lost' }),
      { code: 'gpu_lost', message: 'the render failed with "gpu_lost"; the service log has the details' },
    ],
    ['null', null, { code: 'render_failed', message: 'the render failed' }],
  ];
  for (const [name, error, expected] of CASES) {
    test(`${name} → ${expected.code}, a fixed message, the detail for the log only`, () => {
      const { failure, detail } = renderFailure(error);
      assert.deepEqual(failure, expected);
      assert.ok(detail.includes(error instanceof Error ? error.message : String(error)), detail);
    });
  }
});
