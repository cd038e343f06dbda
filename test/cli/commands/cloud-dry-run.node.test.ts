/** `fx cloud render --dry-run` and `--metadata` against the real reference service (FFmpeg test renderer). */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startClientSetup, type ClientSetup } from '../../client/helpers/setup.js';
import { compositionHtml, TITLE_DECLARATIONS } from '../../service/helpers/harness.js';
import { baseEnv, eventsOf, fx, tempProject } from '../helpers.js';

/** 0.5 s: 15 frames at 30 fps. */
const HTML = compositionHtml({ variables: TITLE_DECLARATIONS, duration: 0.5 });

describe('fx cloud render --dry-run, --metadata', () => {
  let setup: ClientSetup;
  let project: { path: string; cleanup: () => Promise<void> };
  let env: Record<string, string | undefined>;
  const renders = () => setup.service.count('renders');

  before(async () => {
    setup = await startClientSetup();
    project = await tempProject({ 'index.html': HTML });
    env = baseEnv(project.path, { CLOUD_API_URL: setup.proxy.url, CLOUD_API_KEY: setup.service.key });
  });
  after(async () => {
    await setup.close();
    await project.cleanup();
  });

  test('--dry-run: the local file list, then what the service would render; no render created, exit 0', async () => {
    const before = await renders();
    const run = await fx(['cloud', 'render', '--dry-run', '--json', '--format', 'png', '--time', '0.25'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [files, answer] = eventsOf(run, 'result');
    assert.equal(files?.stage, 'files');
    assert.equal(answer?.stage, 'dry_run');
    assert.match(String(answer?.asset_id), /^ast_/);
    const dryRun = answer?.dry_run as { format: string; output: { frames: number; start: number } };
    assert.equal(dryRun.format, 'png');
    // Snapped to the frame grid: 0.25 s at 30 fps is frame 8 (7.5 rounded), 8/30 s.
    assert.deepEqual([dryRun.output.frames, dryRun.output.start], [1, 8 / 30]);
    assert.equal(await renders(), before);
  });

  test('--dry-run, human output: size, frames, duration and credits on stdout', async () => {
    const run = await fx(['cloud', 'render', '--dry-run', '--fps', '10'], { env, cwd: project.path });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /would render mp4, 1080p 16:9, 10 fps: 1920×1080, 5 frames, 0\.5 s from 0 s/);
    assert.match(run.stdout, /credits: /);
    assert.match(run.stdout, /nothing was rendered; no credits were used/);
  });

  test('--dry-run refuses what the submit would, with its code, before the upload', async () => {
    const before = await setup.service.count('assets');
    const run = await fx(['cloud', 'render', '--dry-run', '--json', '--format', 'gif', '--fps', '60'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 2, run.stderr);
    // The GIF's frame-rate cap is the shared flags' rule (as fx render's), before the client is asked.
    assert.equal(eventsOf(run, 'error')[0]?.code, 'cli_flag_invalid');
    assert.equal(await setup.service.count('assets'), before);
  });

  test('--metadata is sent with the render and kept in its record', async () => {
    const run = await fx(['cloud', 'render', '--no-wait', '--json', '--metadata', '{"order":"A-17","n":[1,2]}'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 0, run.stderr);
    const id = String(eventsOf(run, 'result')[0]?.render_id);
    const record = (await (await setup.service.api(`/v3/renders/${id}`)).json()) as { metadata: unknown };
    assert.deepEqual(record.metadata, { order: 'A-17', n: [1, 2] });
  });

  test('--batch with --metadata: each row its own, filled from its values, in manifest.json', async () => {
    await writeFile(join(project.path, 'rows.json'), JSON.stringify([{ title: 'One' }, { title: 'Two' }]));
    const run = await fx(
      [
        'cloud',
        'render',
        '--json',
        '--no-wait',
        '--batch',
        'rows.json',
        '--metadata',
        '{"customer":"{title}","row":"{index}"}',
      ],
      { env, cwd: project.path },
    );
    assert.equal(run.code, 0, run.stderr);
    const manifest = JSON.parse(await readFile(join(project.path, 'renders', 'manifest.json'), 'utf8')) as {
      rows: { metadata: unknown; request: { format?: string } }[];
    };
    assert.deepEqual(
      manifest.rows.map((row) => row.metadata),
      [
        { customer: 'One', row: 0 },
        { customer: 'Two', row: 1 },
      ],
    );
  });

  test('--batch with --metadata naming a key a row lacks: refused before the upload, exit 3', async () => {
    await writeFile(join(project.path, 'rows.json'), JSON.stringify([{ title: 'One' }, {}]));
    const before = await setup.service.count('assets');
    const run = await fx(['cloud', 'render', '--json', '--batch', 'rows.json', '--metadata', '{"c":"{title}"}'], {
      env,
      cwd: project.path,
    });
    assert.equal(run.code, 3, run.stderr);
    assert.equal(eventsOf(run, 'error')[0]?.code, 'batch_metadata_placeholder_invalid');
    assert.equal(await setup.service.count('assets'), before);
  });
});
