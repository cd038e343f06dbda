// The S3 storage's local copies of project trees: fetched once, kept while in use, at most `maxIdle` released
// ones kept, never half-filled.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { processCacheDir, TreeCache } from '../../src/service/storage/tree-cache.js';
import { waitFor } from './helpers/harness.js';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'fx-tree-cache-'));
});
after(() => rm(root, { recursive: true, force: true }));

/** A fill that writes one file and counts its calls. */
function filler(content = 'x') {
  const fill = async (folder: string) => {
    fill.calls++;
    await writeFile(join(folder, 'index.html'), content);
    return true;
  };
  fill.calls = 0;
  return fill;
}

const gone = (folder: string) => waitFor(() => (existsSync(folder) ? undefined : true), 2_000, `${folder} removed`);

test('concurrent acquires of one tree fill it once and get the same folder', async () => {
  const cache = new TreeCache(join(root, 'once'), 4);
  const fill = filler();
  const [a, b] = await Promise.all([cache.acquire('assets/a', fill), cache.acquire('assets/a', fill)]);
  assert.equal(a, b);
  assert.equal(fill.calls, 1);
  assert.deepEqual(await readdir(a), ['index.html']);
  assert.equal(await cache.acquire('assets/a', fill), a);
  assert.equal(fill.calls, 1);
});

test('no tree: the folder does not exist, and a later acquire asks again', async () => {
  const cache = new TreeCache(join(root, 'none'), 4);
  let calls = 0;
  const folder = await cache.acquire('assets/none', async () => (calls++, false));
  assert.equal(existsSync(folder), false);
  await cache.acquire('assets/none', async () => (calls++, false));
  assert.equal(calls, 2);
});

test('a failing fill leaves no folder and no staging leftovers, and releases its hold', async () => {
  const cache = new TreeCache(join(root, 'failing'), 0);
  const failure = new Error('download broke off');
  await assert.rejects(
    cache.acquire('assets/f', async (folder) => {
      await writeFile(join(folder, 'half.html'), 'half');
      throw failure;
    }),
    (error) => error === failure,
  );
  assert.equal(existsSync(join(root, 'failing', 'assets', 'f')), false);
  assert.deepEqual(await readdir(join(root, 'failing', '.tmp')), []);
  const fill = filler();
  await cache.acquire('assets/f', fill);
  assert.equal(fill.calls, 1);
});

test('beyond maxIdle released trees the longest unused goes; trees in use stay', async () => {
  const cache = new TreeCache(join(root, 'bound'), 1);
  const held = await cache.acquire('assets/held', filler());
  const first = await cache.acquire('assets/first', filler());
  cache.release('assets/first');
  const second = await cache.acquire('assets/second', filler());
  cache.release('assets/second');
  await gone(first);
  assert.ok(existsSync(second), 'the last released tree is kept');
  assert.ok(existsSync(held), 'a tree in use is never removed');
  // Taken again before it was evicted: kept, and not fetched again.
  const fill = filler();
  assert.equal(await cache.acquire('assets/second', fill), second);
  assert.equal(fill.calls, 0);
});

test('a tree two renders use stays until both released it; a release without acquire does nothing', async () => {
  const cache = new TreeCache(join(root, 'shared'), 0);
  const folder = await cache.acquire('assets/s', filler());
  await cache.acquire('assets/s', filler());
  cache.release('assets/s');
  cache.release('assets/never-acquired');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(existsSync(folder));
  cache.release('assets/s');
  await gone(folder);
});

test('remove drops a copy at once; the next acquire fetches the tree again', async () => {
  const cache = new TreeCache(join(root, 'remove'), 4);
  const fill = filler('v1');
  const folder = await cache.acquire('renders/r/project', fill);
  await cache.remove('renders/r');
  assert.equal(existsSync(folder), false);
  await cache.acquire('renders/r/project', fill);
  assert.equal(fill.calls, 2);
});

test("each process keeps its own cache folder; this host's dead processes' folders go, others stay", async () => {
  const parent = join(root, 'per-process');
  const { spawnSync } = await import('node:child_process');
  const { hostname } = await import('node:os');
  const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  const host = hostname();
  const folders = {
    dead: `${host}-${deadPid}`,
    running: `${host}-${process.ppid}`,
    otherHost: `other-host.invalid-${deadPid}`,
    notOurs: 'notes',
  };
  for (const folder of Object.values(folders)) await mkdir(join(parent, folder, 'assets'), { recursive: true });
  const own = await processCacheDir(parent);
  assert.equal(own, join(parent, `${host}-${process.pid}`));
  assert.deepEqual(
    (await readdir(parent)).sort(),
    [folders.running, folders.otherHost, folders.notOurs].sort(),
    'only the dead process of this host lost its folder',
  );
  assert.equal(
    await processCacheDir(join(root, 'not-there-yet')),
    join(root, 'not-there-yet', `${host}-${process.pid}`),
  );
});
