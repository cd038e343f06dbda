/**
 * `npm run test:install`: the packed `fx-sdk-server` as a user gets it. Packs it (packages/server/dist must be built:
 * scripts/build.mjs), installs it with `npm i -g --prefix <tmp>` (npm's default install: better-sqlite3 is compiled
 * here, as no prebuilt binary can be downloaded), then runs the installed `fx` with plain `node` and no access to
 * this repository: `--help`, `init`, `render` (checked with ffprobe) and `service create-key` (the native module).
 * Prints the time from the start of the install to the first rendered file. Not a node-stage test: the install
 * takes a minute or more on two cores.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The tarballs npm fetches stay between runs (as test/apps/run.mjs keeps its own).
const NPM_CACHE = join(ROOT, 'node_modules/.cache/fx-install/npm');
const run = promisify(execFile);

let work: string;
let prefix: string;
let installStarted: number;
let installSeconds: number;
/** The installed command's environment: its own bin folder first, a fresh HOME, never this repository's tools. */
let env: NodeJS.ProcessEnv;
let installWarnings = '';
const fx = (args: readonly string[], cwd = work) =>
  run(join(prefix, 'bin/fx'), args, { cwd, env, maxBuffer: 16 << 20 });

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'fx-install-'));
  prefix = join(work, 'prefix');
  env = { PATH: `${join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: join(work, 'home'), NO_COLOR: '1' };
  const { stdout } = await run(
    'npm',
    ['pack', '--silent', '--workspace', 'packages/server', '--pack-destination', work],
    {
      cwd: ROOT,
    },
  );
  const tarball = join(work, stdout.trim().split('\n').at(-1)!);
  installStarted = performance.now();
  const installed = await run(
    'npm',
    [
      'install',
      '--global',
      // As docs/cli.md says to: npm 11 warns about a global install's scripts that no --allow-scripts names.
      '--allow-scripts=better-sqlite3',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--cache',
      NPM_CACHE,
      tarball,
    ],
    { cwd: work, maxBuffer: 16 << 20 },
  );
  installSeconds = (performance.now() - installStarted) / 1000;
  installWarnings = installed.stderr;
});
after(() => rm(work, { recursive: true, force: true }));

test('the tarball holds the bundle, the browser bundles and the starter, and no sources', async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--workspace', 'packages/server'], { cwd: ROOT });
  const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
  for (const file of ['bin/fx.mjs', 'dist/fx.js', 'dist/fx-service.js', 'dist/fx.iife.js', 'dist/fx-runtime.js'])
    assert.ok(files.includes(file), `${file} is packed`);
  assert.ok(files.some((file) => file.startsWith('dist/starter/')));
  assert.deepEqual(
    files.filter((file) => file.endsWith('.ts')),
    [],
  );
});

test("docs/cli.md's install line installs without a warning about install scripts", () => {
  assert.doesNotMatch(installWarnings, /install-scripts|allowScripts/i, installWarnings);
});

test('fx --help runs from the install with plain node', async () => {
  const { stdout } = await fx(['--help']);
  assert.match(stdout, /^Usage: fx <command>/m);
});

test('fx service --help points to deploy.md and service.md, which the install has', async () => {
  const { stdout } = await fx(['service', '--help']);
  for (const page of ['deploy.md', 'service.md']) {
    const path = new RegExp(`(/\\S+/docs/${page.replace('.', '\\.')})$`, 'm').exec(stdout)?.[1];
    assert.ok(path, `no ${page} in:\n${stdout}`);
    assert.ok(!path.startsWith(ROOT), `${path} is the repository's, not the install's`);
    assert.match(readFileSync(path, 'utf8'), /^# /);
  }
});

test('fx render renders what fx init wrote; the time from install to video is printed', async (t) => {
  await fx(['init', 'intro']);
  await fx(['render', 'intro', '-o', 'out.mp4', '--fps', '10']);
  const rendered = (performance.now() - installStarted) / 1000;
  const video = join(work, 'out.mp4');
  assert.ok((await stat(video)).size > 0);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', video]);
  const [stream] = (JSON.parse(stdout) as { streams: { codec_name: string; r_frame_rate: string }[] }).streams;
  assert.equal(stream!.codec_name, 'h264');
  assert.equal(stream!.r_frame_rate, '10/1');
  const message = `npm i -g: ${installSeconds.toFixed(1)} s; install start → first rendered file: ${rendered.toFixed(1)} s`;
  t.diagnostic(message);
  console.error(`[install] ${message}`);
});

test('fx service create-key works from the install (better-sqlite3 built)', async () => {
  const dataDir = join(work, 'service');
  const { stdout } = await fx(['service', 'create-key', '--account', 'me', '--data-dir', dataDir]);
  assert.match(stdout, /fx_live_\w+/);
  assert.ok((await readdir(dataDir)).length > 0);
});
