/**
 * A broken install is told as one: a typed code, a message naming what is broken, a hint saying what to install —
 * never `internal_error`. better-sqlite3 is broken for real (a copy without its addon, or with a file that is no
 * addon, loaded through a resolve hook); FFmpeg is missing by FX_FFMPEG pointing nowhere.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventsOf, fx, tempProject } from './helpers.js';

const HOOK = fileURLToPath(new URL('./fixtures/broken-module-hook.mjs', import.meta.url));
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

describe('a broken install', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  /** A copy of better-sqlite3 (its JavaScript only) under dir/<name>/node_modules, with `bindings` linked in. */
  const brokenCopy = async (name: string, addon?: string) => {
    const modules = join(dir.path, name, 'node_modules');
    const copy = join(modules, 'better-sqlite3');
    await mkdir(copy, { recursive: true });
    await cp(join(packageDir('better-sqlite3'), 'lib'), join(copy, 'lib'), { recursive: true });
    await cp(join(packageDir('better-sqlite3'), 'package.json'), join(copy, 'package.json'));
    await symlink(packageDir('bindings'), join(modules, 'bindings'));
    if (addon !== undefined) {
      await mkdir(join(copy, 'build/Release'), { recursive: true });
      await writeFile(join(copy, 'build/Release/better_sqlite3.node'), addon);
    }
    return copy;
  };
  before(async () => {
    dir = await tempProject();
  });
  after(() => dir.cleanup());

  const createKey = (broken: string) =>
    fx(['service', 'create-key', '--account', 'me', '--data-dir', join(dir.path, 'data'), '--json'], {
      env: {
        PATH: process.env.PATH,
        HOME: dir.path,
        NODE_OPTIONS: `--import=${HOOK}`,
        FX_TEST_BROKEN_SQLITE: broken,
      },
    });

  for (const [name, setup, code, says] of [
    ['better-sqlite3 not installed', async () => 'missing', 'cli_dependency_missing', /"better-sqlite3" .* is missing/],
    [
      'better-sqlite3 without its native addon',
      () => brokenCopy('unbuilt'),
      'cli_native_module_broken',
      /"better-sqlite3" \(the reference service's SQLite database\) cannot be loaded .*Could not locate the bindings file/,
    ],
    [
      'better-sqlite3 with an addon that is not one (built elsewhere)',
      () => brokenCopy('garbage', 'not a shared object'),
      'cli_native_module_broken',
      /"better-sqlite3" .* cannot be loaded .*npm rebuild better-sqlite3/,
    ],
  ] as const) {
    test(`${name}: ${code}, exit 1, with what to do`, async () => {
      const run = await createKey(await setup());
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const [error] = eventsOf(run, 'error');
      assert.equal(error?.code, code, run.stdout + run.stderr);
      assert.match(String(error?.message), says);
      assert.ok(error?.hint, 'a hint');
    });
  }

  test('FFmpeg missing: a batch stops at the first row with ffmpeg_not_found and says what to install', async () => {
    const project = join(dir.path, 'project');
    const init = await fx(['init', project], { env: { PATH: process.env.PATH, HOME: dir.path } });
    assert.equal(init.code, 0, init.stderr);
    await writeFile(join(project, 'rows.json'), JSON.stringify([{ title: 'A' }, { title: 'B' }, { title: 'C' }]));
    const run = await fx(
      ['render', '--batch', 'rows.json', '-o', 'out/{index}.mp4', '--fps', '4', '--workers', '1', '--json'],
      { cwd: project, env: { PATH: process.env.PATH, HOME: dir.path, FX_FFMPEG: join(dir.path, 'no-ffmpeg') } },
    );
    assert.equal(run.code, 1, run.stderr);
    const [error] = eventsOf(run, 'error');
    assert.equal(error?.code, 'ffmpeg_not_found');
    assert.match(String(error?.hint), /apt-get install ffmpeg/);
    const manifest = JSON.parse(await readFile(join(project, 'out/manifest.json'), 'utf8')) as {
      rows: { status: string }[];
    };
    assert.deepEqual(
      manifest.rows.map((row) => row.status),
      ['failed', 'pending', 'pending'],
    );
  });
});
