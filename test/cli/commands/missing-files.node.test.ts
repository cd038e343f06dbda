/** `fx lint`, `fx render` and `fx cloud render --dry-run` on a project that names a file it does not have. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probe } from '../../render/helpers.js';
import { eventsOf, fx, tempProject } from '../helpers.js';

const ENTRY =
  '<!doctype html><html><body><div data-composition-id="m" data-width="64" data-height="48" data-duration="1">' +
  '<img src="img/logo.png" alt=""><div style="background: url(bg.png)"></div></div></body></html>';
const env = { PATH: process.env.PATH, HOME: '/nonexistent' };
const FAST = ['--fps', '2', '--workers', '1'];

describe('a project that names files it does not have', () => {
  let project: { path: string; cleanup: () => Promise<void> };
  before(async () => {
    project = await tempProject({ 'index.html': ENTRY, 'bg.png': 'png', '.fxignore': 'bg.png\n' });
  });
  after(() => project.cleanup());

  test('fx lint: project_file_missing naming the file, the file naming it and where; exit 3', async () => {
    const linted = await fx(['lint', project.path, '--json'], { env });
    assert.equal(linted.code, 3);
    const missing = eventsOf(linted, 'warning').filter((found) => found.code === 'project_file_missing');
    assert.deepEqual(
      missing.map(({ file, severity, path }) => ({ file, severity, path })),
      [{ file: 'index.html', severity: 'error', path: ['index.html', '<img src>', 'img/logo.png'] }],
    );
    assert.equal(
      missing[0]!.message,
      '<img src> in "index.html" names "img/logo.png", which the project does not have',
    );
    const [failed] = eventsOf(linted, 'error');
    assert.equal(failed?.code, 'cli_lint_failed');
    assert.match(String(failed?.message), /--allow-missing-files/);
  });

  test('fx render: refused before a browser starts, nothing written', async () => {
    const rendered = await fx(['render', project.path, ...FAST, '--json'], { env, cwd: project.path });
    assert.equal(rendered.code, 3);
    assert.equal(existsSync(join(project.path, 'renders')), false);
  });

  test('fx render --allow-missing-files: renders, and warns about the file', async () => {
    const output = join(project.path, 'out.mp4');
    const rendered = await fx(['render', project.path, ...FAST, '--allow-missing-files', '-o', output, '--json'], {
      env,
      cwd: project.path,
    });
    assert.equal(rendered.code, 0, rendered.stderr);
    const warned = eventsOf(rendered, 'warning').map((found) => found.code);
    assert.ok(warned.includes('project_file_missing'), JSON.stringify(warned));
    const { streams } = await probe(output);
    assert.equal(streams[0]?.codec_type, 'video');
    assert.equal(streams[0]?.nb_read_frames, '2');
  });

  test('fx cloud render --dry-run: files the upload lacks (an ignored one too) are errors; exit 3, nothing sent', async () => {
    const dry = await fx(['cloud', 'render', project.path, '--dry-run', '--json'], { env });
    assert.equal(dry.code, 3);
    const missing = eventsOf(dry, 'warning').filter((found) => found.code === 'project_file_missing');
    assert.deepEqual(
      missing.map(({ path }) => path),
      [
        ['index.html', '<img src>', 'img/logo.png'],
        ['index.html', '<div style> url()', 'bg.png'],
      ],
    );
    assert.equal(eventsOf(dry, 'error')[0]?.code, 'project_file_missing');
  });

  test('fx cloud render: refused with project_file_missing before anything is sent (no service listens); exit 3', async () => {
    const cloudEnv = { ...env, CLOUD_API_URL: 'http://127.0.0.1:9', CLOUD_API_KEY: 'fx_live_test' };
    const refused = await fx(['cloud', 'render', project.path, '--json'], { env: cloudEnv, cwd: project.path });
    assert.equal(refused.code, 3, refused.stderr);
    const [error] = eventsOf(refused, 'error');
    assert.equal(error?.code, 'project_file_missing');
    assert.match(String(error?.message), /allowMissingFiles|--allow-missing-files/);
  });

  test('fx cloud render --dry-run --allow-missing-files: the same places as warnings, then the service is asked (here without a credential: exit 4)', async () => {
    const dry = await fx(['cloud', 'render', project.path, '--dry-run', '--allow-missing-files', '--json'], { env });
    const missing = eventsOf(dry, 'warning').filter((found) => found.code === 'project_file_missing');
    assert.deepEqual(
      missing.map(({ severity }) => severity),
      ['warning', 'warning'],
    );
    assert.equal(dry.code, 4, dry.stderr);
    assert.deepEqual(
      eventsOf(dry, 'error').map((found) => found.code),
      ['cli_not_signed_in'],
    );
  });

  test('fx cloud render --help names --allow-missing-files', async () => {
    const help = await fx(['cloud', 'render', '--help'], { env });
    assert.match(help.stdout, /--allow-missing-files\s+render even when the composition names files the upload lacks/);
  });

  test('fx render --help names the flag', async () => {
    const help = await fx(['render', '--help'], { env });
    assert.match(help.stdout, /--allow-missing-files/);
  });
});

describe('a project whose linked stylesheet names files it does not have', () => {
  const CSS_ENTRY =
    '<!doctype html><html><head><link rel="stylesheet" href="css/main.css"></head><body>' +
    '<div data-composition-id="m" data-width="64" data-height="48" data-duration="1"></div></body></html>';
  let project: { path: string; cleanup: () => Promise<void> };
  before(async () => {
    project = await tempProject({
      'index.html': CSS_ENTRY,
      'css/main.css':
        '@font-face { font-family: F; src: url("../fonts/f.woff2") } body { background: url(bg.png) url(../img/ok.png) }',
      'css/bg.png': 'png',
      'img/ok.png': 'png',
      '.fxignore': 'css/bg.png\n',
    });
  });
  after(() => project.cleanup());

  test('fx lint: each url() of the stylesheet naming a missing file, placed in the stylesheet; exit 3', async () => {
    const linted = await fx(['lint', project.path, '--json'], { env });
    assert.equal(linted.code, 3);
    const missing = eventsOf(linted, 'warning').filter((found) => found.code === 'project_file_missing');
    assert.deepEqual(
      missing.map(({ file, path, message }) => ({ file, path, message })),
      [
        {
          file: 'index.html',
          path: ['css/main.css', 'url()', 'fonts/f.woff2'],
          message: 'url() in "css/main.css" names "fonts/f.woff2", which the project does not have',
        },
      ],
    );
  });

  test('fx cloud render --dry-run: the stylesheet is read from the upload (an ignored file is missing)', async () => {
    const dry = await fx(['cloud', 'render', project.path, '--dry-run', '--json'], { env });
    assert.equal(dry.code, 3);
    assert.deepEqual(
      eventsOf(dry, 'warning')
        .filter((found) => found.code === 'project_file_missing')
        .map(({ path }) => path),
      [
        ['css/main.css', 'url()', 'fonts/f.woff2'],
        ['css/main.css', 'url()', 'css/bg.png'],
      ],
    );
  });
});
