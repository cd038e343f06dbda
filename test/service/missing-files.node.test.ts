/**
 * POST /v3/renders on an asset whose entry names files the asset lacks: refused at submit with
 * `project_file_missing` (each place listed, by the rule lint and the compile use), no render and no credits,
 * unless `allow_missing_files`, which the renderer is then told.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RenderOptions } from '../../src/render/types.js';
import { createFfmpegRenderer } from './helpers/ffmpeg-renderer.js';
import {
  compositionHtml,
  jsonInit,
  startTestService,
  uploadProject,
  waitForFinished,
  type TestService,
} from './helpers/harness.js';

interface ErrorJson {
  error: { code: string; message: string; param: string | null; issues?: { path: string[]; message: string }[] };
}

const withBody = (extra: string) => compositionHtml({ extra: '' }).replace('</div></body>', `${extra}</div></body>`);

const PROJECT: Record<string, string> = {
  'index.html': withBody('<img src="img/ok.png" alt="">'),
  'img/ok.png': 'png',
  'missing.html': withBody(
    '<img src="img/gone.png" alt=""><img src="img/ok.png" alt="">' +
      '<link rel="stylesheet" href="css/main.css"><div data-composition-src="parts/card.html"></div>',
  ),
  'css/main.css': '@font-face { font-family: F; src: url(../fonts/f.woff2) } body { background: url("../img/ok.png") }',
  'parts/card.html': '<template><div data-composition-id="card" style="background: url(card-bg.png)"></div></template>',
  'many.html': withBody(Array.from({ length: 60 }, (_, index) => `<img src="m/${index}.png" alt="">`).join('')),
  'hostile.html': withBody(
    ['a//b.png', '%00.png', '..%2f..%2fetc%2fpasswd', 'x%5Cy.png', '/../../top.png', 'https://cdn.example/x.png']
      .map((src) => `<img src="${src}" alt="">`)
      .join('') + '<img src="data:image/png;base64,AA==" alt="">',
  ),
  'cycle.html': withBody('<div data-composition-src="parts/a.html"></div>'),
  'parts/a.html': '<div data-composition-id="a" data-composition-src="b.html"><img src="a.png" alt=""></div>',
  'parts/b.html': '<div data-composition-id="b" data-composition-src="a.html"></div>',
};

describe('POST /v3/renders: files the asset lacks', () => {
  let test_: TestService;
  let assetId: string;
  const started: RenderOptions[] = [];
  before(async () => {
    test_ = await startTestService({ render: createFfmpegRenderer({ onStart: (options) => started.push(options) }) });
    assetId = await uploadProject(test_, PROJECT);
  });
  after(() => test_.close());

  const refused = async (body: Record<string, unknown>) => {
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId, ...body }));
    const json = (await response.json()) as ErrorJson;
    assert.equal(response.status, 422, json.error.message);
    assert.deepEqual(
      { code: json.error.code, param: json.error.param },
      {
        code: 'project_file_missing',
        param: 'composition',
      },
    );
    assert.equal(await test_.count('renders'), 0);
    return json.error;
  };

  test('each place is listed: the entry, its linked stylesheet and its sub-composition; no render, no credits', async () => {
    const error = await refused({ composition: 'missing.html' });
    assert.deepEqual(
      error.issues?.map((found) => found.path),
      [
        ['missing.html', '<img src>', 'img/gone.png'],
        ['css/main.css', 'url()', 'fonts/f.woff2'],
        ['parts/card.html', '<div style> url()', 'parts/card-bg.png'],
      ],
    );
    assert.match(error.message, /^the composition "missing\.html" names files the asset does not have: /);
    assert.match(error.message, /"allow_missing_files": true/);
    const account = (await (await test_.api('/v3/account')).json()) as { usage: { credits_used: number } };
    assert.equal(account.usage.credits_used, 0);
  });

  test('at most 50 places, then one issue counting the rest', async () => {
    const { issues = [] } = await refused({ composition: 'many.html' });
    assert.equal(issues.length, 51);
    assert.deepEqual(issues[49]!.path, ['many.html', '<img src>', 'm/49.png']);
    assert.deepEqual(issues[50], {
      code: 'project_file_missing',
      severity: 'error',
      path: [],
      message: 'and 10 more places name files the project does not have',
    });
  });

  test('hostile paths: names no zip entry may have are missing, never a storage error; others hosts unchecked', async () => {
    const { issues = [] } = await refused({ composition: 'hostile.html' });
    assert.deepEqual(
      issues.map((found) => found.path[2]),
      ['a//b.png', '\u0000.png', '../../etc/passwd', 'x\\y.png', 'top.png'],
    );
  });

  test('sub-compositions that mount each other are read once each', async () => {
    const { issues = [] } = await refused({ composition: 'cycle.html' });
    assert.deepEqual(
      issues.map((found) => found.path),
      [['parts/a.html', '<img src>', 'parts/a.png']],
    );
  });

  test('allow_missing_files: true renders, and the renderer is told', async () => {
    started.length = 0;
    const response = await test_.api(
      '/v3/renders',
      jsonInit({ asset_id: assetId, composition: 'missing.html', allow_missing_files: true, fps: 2 }),
    );
    const queued = (await response.json()) as { render_id: string; allow_missing_files: boolean };
    assert.equal(response.status, 202, JSON.stringify(queued));
    assert.equal(queued.allow_missing_files, true);
    const finished = await waitForFinished(test_, queued.render_id);
    assert.equal(finished.status, 'completed');
    assert.equal(started[0]?.allowMissingFiles, true);
  });

  test('a complete project renders as before, allow_missing_files false in the record and for the renderer', async () => {
    started.length = 0;
    const response = await test_.api('/v3/renders', jsonInit({ asset_id: assetId, fps: 2 }));
    const queued = (await response.json()) as { render_id: string; allow_missing_files: boolean };
    assert.equal(response.status, 202, JSON.stringify(queued));
    assert.equal(queued.allow_missing_files, false);
    assert.equal((await waitForFinished(test_, queued.render_id)).status, 'completed');
    assert.equal(started[0]?.allowMissingFiles, false);
  });

  for (const value of ['yes', 1, null, [], {}])
    test(`allow_missing_files ${JSON.stringify(value)}: parameter_invalid, nothing stored`, async () => {
      const before = await test_.count('renders');
      const response = await test_.api(
        '/v3/renders',
        jsonInit({ asset_id: assetId, composition: 'missing.html', allow_missing_files: value }),
      );
      const json = (await response.json()) as ErrorJson;
      assert.deepEqual(
        { status: response.status, code: json.error.code, param: json.error.param },
        { status: 400, code: 'parameter_invalid', param: 'allow_missing_files' },
      );
      assert.equal(json.error.message, `"allow_missing_files" must be true or false, got ${JSON.stringify(value)}`);
      assert.equal(await test_.count('renders'), before);
    });
});
