/** Where the renderer finds fx.iife.js and fx-runtime.js: in the repository, in the installed fx-sdk-server, or FX_DIST_DIR. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILES, bundleDir } from '../../src/render/bundles.js';

let root: string;
const moduleIn = (dir: string) => pathToFileURL(join(root, dir, 'chunk.js')).href;

async function bundlesIn(dir: string, files: readonly string[] = Object.values(BUNDLE_FILES)): Promise<void> {
  await mkdir(join(root, dir), { recursive: true });
  for (const file of files) await writeFile(join(root, dir, file), '');
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'fx-bundles-'));
  await bundlesIn('repo/dist');
  await mkdir(join(root, 'repo/src/render'), { recursive: true });
  await bundlesIn('installed/fx-sdk-server/dist');
  // A repository dist/ two levels above the installed package must not win over the package's own copies.
  await bundlesIn('installed/dist');
  await bundlesIn('half/dist', [BUNDLE_FILES.runtime]);
  await bundlesIn('override');
});
after(() => rm(root, { recursive: true, force: true }));

test("from the repository's src/render/: the repository's dist/", () => {
  assert.equal(bundleDir({}, moduleIn('repo/src/render')), join(root, 'repo/dist'));
});

test('from the bundled fx-sdk-server: the folder of the bundle itself', () => {
  assert.equal(bundleDir({}, moduleIn('installed/fx-sdk-server/dist')), join(root, 'installed/fx-sdk-server/dist'));
});

test('FX_DIST_DIR wins, and is the only place looked at', () => {
  assert.equal(bundleDir({ FX_DIST_DIR: join(root, 'override') }, moduleIn('repo/src/render')), join(root, 'override'));
  assert.throws(
    () => bundleDir({ FX_DIST_DIR: join(root, 'nowhere') }, moduleIn('repo/src/render')),
    (error: Error & { code?: string }) => error.code === 'runtime_bundle_missing' && error.message.includes('nowhere'),
  );
});

test('a folder with only one of the two bundles does not count', () => {
  assert.throws(
    () => bundleDir({}, moduleIn('half/src/render')),
    (error: Error & { code?: string }) =>
      error.code === 'runtime_bundle_missing' && /npm run build/.test(error.message),
  );
});
