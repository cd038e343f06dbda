import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { zipProjectDirectory } from '../../../src/client/zip/directory.node.js';
import { isFxError } from '../../../src/runtime/errors.js';
import { compositionHtml, startTestService, zipInit, type TestService } from '../../service/helpers/harness.js';

const PROJECT: Record<string, string | Uint8Array> = {
  'index.html': compositionHtml({ extra: '<link rel="stylesheet" href="style.css"><img src="media/photo.png">' }),
  'style.css': 'body { margin: 0; }\n'.repeat(200),
  'media/photo.png': randomBytes(200_000),
  'media/clip.mp4': randomBytes(50_000),
  'sub/renders/kept.txt': 'not the root renders folder',
  'sub/notes.txt': 'anchored pattern does not reach here',
  'keep.psd': 'negated',
  '.fxignore': '# drafts and sources\n\n*.psd\n!keep.psd\ndrafts/\n/notes.txt\n',
  // Left out:
  '.git/config': '[core]',
  '.env': 'SECRET=1',
  'node_modules/lib/index.js': 'x',
  'dist/bundle.js': 'x',
  'renders/out.mp4': 'x',
  'snapshots/frame.png': 'x',
  'media/.DS_Store': 'x',
  'Thumbs.db': 'x',
  'art.psd': 'x',
  'drafts/old.html': 'x',
  'notes.txt': 'x',
};
const KEPT = [
  'index.html',
  'keep.psd',
  'media/clip.mp4',
  'media/photo.png',
  'style.css',
  'sub/notes.txt',
  'sub/renders/kept.txt',
];

async function writeProject(root: string, files: Record<string, string | Uint8Array>) {
  for (const [path, data] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), data);
  }
}

describe('zipProjectDirectory (Node)', () => {
  let root: string;
  let service: TestService;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'fx-zip-test-'));
    await writeProject(root, PROJECT);
    service = await startTestService();
  });
  after(async () => {
    await service.close();
    await rm(root, { recursive: true, force: true });
  });

  test('zips the project without the ignore set and what .fxignore lists', async () => {
    const { zip, entries } = await zipProjectDirectory(root);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    assert.deepEqual(Object.keys(files).sort(), KEPT);
    assert.deepEqual(
      entries.map((entry) => entry.path),
      KEPT,
    );
    assert.deepEqual(Buffer.from(files['media/photo.png']!), Buffer.from(PROJECT['media/photo.png']!));
    assert.deepEqual(
      entries.filter((entry) => entry.stored).map((entry) => entry.path),
      ['media/clip.mp4', 'media/photo.png'],
    );
  });

  test('writes the same bytes every time', async () => {
    const first = new Uint8Array(await (await zipProjectDirectory(root)).zip.arrayBuffer());
    const second = new Uint8Array(await (await zipProjectDirectory(root)).zip.arrayBuffer());
    assert.deepEqual(Buffer.from(first), Buffer.from(second));
  });

  test('"ignore: false" zips every file', async () => {
    const { entries } = await zipProjectDirectory(root, { ignore: false });
    assert.equal(entries.length, Object.keys(PROJECT).length);
  });

  test('the service accepts the zip', async () => {
    const { zip, entries } = await zipProjectDirectory(root);
    const response = await service.api(
      '/v3/assets?composition=index.html',
      zipInit(new Uint8Array(await zip.arrayBuffer())),
    );
    assert.equal(response.status, 201, await response.clone().text());
    const asset = (await response.json()) as { file_count: number; size_bytes: number };
    assert.equal(asset.file_count, KEPT.length);
    assert.equal(
      asset.size_bytes,
      entries.reduce((sum, entry) => sum + entry.size, 0),
    );
  });

  test('the service accepts the embed fixture project (test/fixtures/project) zipped from disk', async () => {
    const folder = new URL('../../fixtures/project/', import.meta.url);
    const { zip, entries } = await zipProjectDirectory(folder.pathname);
    assert.ok(
      entries.some((entry) => entry.path === 'parts/card.html') &&
        entries.some((entry) => entry.path === 'fonts/title.ttf'),
    );
    const response = await service.api('/v3/assets', zipInit(new Uint8Array(await zip.arrayBuffer())));
    assert.equal(response.status, 201, await response.clone().text());
    assert.equal(((await response.json()) as { file_count: number }).file_count, entries.length);
  });

  test('refuses a symbolic link instead of following it', async () => {
    const linked = await mkdtemp(join(tmpdir(), 'fx-zip-link-'));
    try {
      await writeProject(linked, { 'index.html': compositionHtml() });
      await symlink('/etc/passwd', join(linked, 'passwd'));
      await assert.rejects(
        zipProjectDirectory(linked),
        (error) => isFxError(error, 'zip_entry_symlink') && (error as { path?: string }).path === 'passwd',
      );
    } finally {
      await rm(linked, { recursive: true, force: true });
    }
  });

  test('refuses a project without its entry composition', async () => {
    await assert.rejects(zipProjectDirectory(root, { composition: 'main.html' }), (error) =>
      isFxError(error, 'asset_entry_missing'),
    );
  });
});
