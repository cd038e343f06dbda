/** `fx render` with stills, GIFs, `--time`, `--thumbnail-time`, `--range` and `--no-loop`, as a child process (the real renderer). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probe } from '../../render/helpers.js';
import { eventsOf, fx, tempProject } from '../helpers.js';

describe('fx render: stills, GIFs, time and range flags', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let project: string;
  // FX_DIST_DIR: the built bundles, where the worktree has none of its own.
  const env = { PATH: process.env.PATH, HOME: '/nonexistent', FX_DIST_DIR: process.env.FX_DIST_DIR };
  const run = (args: string[]) => fx(args, { env, cwd: project });
  const video = async (file: string) => (await probe(file)).streams.find((stream) => stream.codec_type === 'video')!;

  before(async () => {
    dir = await tempProject();
    project = join(dir.path, 'starter');
    const init = await fx(['init', project], { env });
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => dir.cleanup());

  test('fx render --format png --time 2.5 -o poster.png: one 1280×720 PNG of the frame at 2.5 s', async () => {
    const rendered = await run(['render', '--format', 'png', '--time', '2.5', '-o', 'poster.png', '--json']);
    assert.equal(rendered.code, 0, rendered.stderr + rendered.stdout);
    const result = eventsOf(rendered, 'result')[0]!;
    assert.equal(result.path, join(project, 'poster.png'));
    assert.equal(result.thumbnail, result.path);
    assert.deepEqual([result.frames, result.duration, result.start], [1, 0, 2.5]);
    const stream = await video(join(project, 'poster.png'));
    assert.deepEqual([stream.codec_name, stream.width, stream.height], ['png', 1280, 720]);
  });

  test('the default output follows the format: renders/index.gif, 15 fps, a range of 1 s', async () => {
    const rendered = await run([
      'render',
      '--format',
      'gif',
      '--range',
      '1:2',
      '--no-loop',
      '--workers',
      '1',
      '--json',
    ]);
    assert.equal(rendered.code, 0, rendered.stderr + rendered.stdout);
    const result = eventsOf(rendered, 'result')[0]!;
    assert.equal(result.path, join(project, 'renders/index.gif'));
    assert.deepEqual([result.fps, result.frames, result.start, result.duration], [15, 15, 1, 1]);
    assert.equal(Number((await video(String(result.path))).nb_read_frames), 15);
    const bytes = await readFile(String(result.path));
    assert.equal(bytes.indexOf('NETSCAPE2.0'), -1, '--no-loop: no looping extension');
  });

  test('batch: --format jpeg --time applies to every row, {ext} is the format', async () => {
    await writeFile(join(project, 'rows.json'), JSON.stringify([{ title: 'A' }, { title: 'B' }]));
    const rendered = await run(['render', '--batch', 'rows.json', '--format', 'jpeg', '--time', '1', '--json']);
    assert.equal(rendered.code, 0, rendered.stderr + rendered.stdout);
    for (const index of [0, 1]) {
      const file = join(project, `renders/index-${index}.jpeg`);
      assert.equal((await video(file)).codec_name, 'mjpeg', file);
    }
    const manifest = JSON.parse(await readFile(join(project, 'renders/manifest.json'), 'utf8'));
    assert.match(JSON.stringify(manifest), /"time":1/, 'the manifest records the time');
  });

  for (const [name, args, exitCode, code] of [
    ['--time for an mp4', ['--time', '1'], 2, 'cli_flag_ignored'],
    ['--no-loop for a png', ['--format', 'png', '--no-loop'], 2, 'cli_flag_ignored'],
    ['--range for a still', ['--format', 'webp', '--range', '0:1'], 2, 'cli_flag_ignored'],
    ['--thumbnail-time for a still', ['--format', 'jpeg', '--thumbnail-time', '1'], 2, 'cli_flag_ignored'],
    ['a --time that is no number', ['--format', 'png', '--time', 'soon'], 2, 'cli_flag_invalid'],
    ['a negative --time', ['--format', 'png', '--time=-1'], 2, 'cli_flag_invalid'],
    ['a --range without its end', ['--range', '1.5'], 2, 'cli_flag_invalid'],
    ['a --range ending before it starts', ['--range', '4:1.5'], 2, 'cli_flag_invalid'],
    ['a --range of three parts', ['--range', '1:2:3'], 2, 'cli_flag_invalid'],
    ['a gif at 60 fps', ['--format', 'gif', '--fps', '60'], 2, 'cli_flag_invalid'],
    ['a 4k gif', ['--format', 'gif', '--resolution', '4k'], 2, 'resolution_format_unsupported'],
    ['--time past the end', ['--format', 'png', '--time', '9'], 3, 'time_outside_duration'],
    ['--range past the end', ['--range', '2:5'], 3, 'range_outside_duration'],
  ] as const) {
    test(`render refuses ${name} (exit ${exitCode}, ${code}), nothing written`, async () => {
      const refused = await run(['render', '--json', '-o', 'refused/x.{ext}', ...args]);
      assert.equal(refused.code, exitCode, refused.stdout + refused.stderr);
      assert.equal(eventsOf(refused, 'error')[0]?.code, code);
      assert.equal(existsSync(join(project, 'refused')), false);
    });
  }
});
