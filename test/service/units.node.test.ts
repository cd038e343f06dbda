import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ADDED_COLUMNS } from '../../src/service/db/schema.sqlite.js';
import { openDatabase } from '../../src/service/db/sqlite.js';
import { makeWorkDir, removeWorkDir } from '../../src/service/jobs/work-dir.js';
import { isPrivateAddress } from '../../src/service/network-guard.js';
import { renderError, RenderErrorCode } from '../../src/render/errors.js';
import { FxError } from '../../src/runtime/errors.js';
import { renderFailure } from '../../src/service/jobs/render-failure.js';
import { creditsFor } from '../../src/service/renders/billing.js';
import { checkCompositionLength } from '../../src/service/renders/project-check.js';
import { aspectRatioOf } from '../../src/wire/aspect-ratio.js';
import { withBaseHref } from '../../src/service/renders/url-page.js';
import { UrlSigner } from '../../src/service/signing/url-signer.js';
import { tempDir } from '../render/helpers.js';

describe('isPrivateAddress', () => {
  const PRIVATE = [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12::3',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ];
  const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
  for (const address of PRIVATE) test(`${address} is private`, () => assert.equal(isPrivateAddress(address), true));
  for (const address of PUBLIC) test(`${address} is public`, () => assert.equal(isPrivateAddress(address), false));

  // IPv6 forms that carry an IPv4 address: NAT64 (RFC 6052), 6to4 (RFC 3056), IPv4-compatible (RFC 4291, deprecated).
  const EMBEDDED_PRIVATE = [
    '64:ff9b::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::c0a8:101',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:101:1::1',
    '2002:a9fe:a9fe::',
    '::127.0.0.1',
    '::7f00:1',
    '::10.0.0.1',
    '::a9fe:a9fe',
  ];
  for (const address of EMBEDDED_PRIVATE)
    test(`${address} is private (embeds a private IPv4 address)`, () => assert.equal(isPrivateAddress(address), true));
  // The same forms around public IPv4 addresses stay reachable: an IPv6-only host with DNS64 sees every site as 64:ff9b::….
  for (const address of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1'])
    test(`${address} is public (embeds a public IPv4 address)`, () => assert.equal(isPrivateAddress(address), false));
});

describe('checkCompositionLength', () => {
  const limits = { maxDurationSeconds: 600, maxFrames: 36_000 };
  const ACCEPTED: [number | undefined, number][] = [
    [undefined, 240],
    [600, 60],
    [0.5, 30],
    [150, 240],
  ];
  const REFUSED: [number, number][] = [
    [1e308, 1],
    [600.001, 1],
    [601, 1],
    [600, 61],
    [150.01, 240],
    [Number.MAX_VALUE, 240],
  ];
  for (const [duration, fps] of ACCEPTED)
    test(`${duration} s at ${fps} fps is accepted`, () => checkCompositionLength(duration, 'index.html', fps, limits));
  for (const [duration, fps] of REFUSED) {
    test(`${duration} s at ${fps} fps → composition_duration_too_long`, () => {
      assert.throws(() => checkCompositionLength(duration, 'index.html', fps, limits), {
        code: 'composition_duration_too_long',
        status: 422,
        param: 'composition',
      });
    });
  }
  test('frames are counted like the renderer counts them (rounded)', () => {
    checkCompositionLength(0.34, 'index.html', 30, { maxDurationSeconds: 600, maxFrames: 10 });
    assert.throws(() => checkCompositionLength(0.35, 'index.html', 30, { maxDurationSeconds: 600, maxFrames: 10 }), {
      code: 'composition_duration_too_long',
    });
  });
});

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

describe('creditsFor', () => {
  const CASES: [number, '1080p' | '4k', number][] = [
    [30, '1080p', 1],
    [60, '1080p', 2],
    [30, '4k', 1.5],
    [31, '1080p', 1.04],
    [1, '1080p', 0.04],
    [300, '4k', 15],
    [0, '1080p', 0],
  ];
  for (const [frames, resolution, credits] of CASES)
    test(`${frames} frames at ${resolution} cost ${credits}`, () =>
      assert.equal(creditsFor(frames, resolution), credits));
});

describe("aspectRatioOf (the renderer's detectAspectRatio, 16:9 without a size)", () => {
  const CASES: [number | undefined, number | undefined, string][] = [
    [1920, 1080, '16:9'],
    [1080, 1920, '9:16'],
    [1000, 1000, '1:1'],
    [1280, 960, '1:1'],
    [2560, 1080, '16:9'],
    [undefined, 1080, '16:9'],
    [undefined, undefined, '16:9'],
  ];
  for (const [width, height, ratio] of CASES)
    test(`${width}×${height} → ${ratio}`, () => assert.equal(aspectRatioOf({ width, height }), ratio));
});

describe('withBaseHref', () => {
  const URL_ = 'https://example.com/a/page.html?x=1&y="2"';
  const BASE = '<base href="https://example.com/a/page.html?x=1&amp;y=&quot;2&quot;">';
  test('goes first in <head>', () =>
    assert.equal(
      withBaseHref('<html><head lang="en"><title>t</title></head></html>', URL_),
      `<html><head lang="en">${BASE}<title>t</title></head></html>`,
    ));
  test('goes after <html> without <head>', () =>
    assert.equal(
      withBaseHref('<!doctype html><html><body>x</body></html>', URL_),
      `<!doctype html><html>${BASE}<body>x</body></html>`,
    ));
  test('goes after the doctype without <html>', () =>
    assert.equal(withBaseHref('<!DOCTYPE html><p>x', URL_), `<!DOCTYPE html>${BASE}<p>x`));
  test('is not confused by <header>', () =>
    assert.equal(withBaseHref('<header>x</header>', URL_), `${BASE}<header>x</header>`));
  test("keeps the page's own base", () =>
    assert.equal(withBaseHref('<head><base href="/x/"></head>', URL_), '<head><base href="/x/"></head>'));
});

describe('UrlSigner', () => {
  const signer = new UrlSigner(Buffer.alloc(32, 7));
  const path = '/v3/files/renders/rnd_a/video.mp4';
  const signature = signer.sign(path, 1000);
  test('a valid link', () => assert.equal(signer.check(path, '1000', signature, 999), 'valid'));
  test('valid until the second it expires', () => assert.equal(signer.check(path, '1000', signature, 1000), 'valid'));
  test('an expired link', () => assert.equal(signer.check(path, '1000', signature, 1001), 'expired'));
  test('another path', () =>
    assert.equal(signer.check(path.replace('rnd_a', 'rnd_b'), '1000', signature, 999), 'invalid'));
  test('another expiry', () => assert.equal(signer.check(path, '1001', signature, 999), 'invalid'));
  test('a non-numeric expiry', () => assert.equal(signer.check(path, '1e3', signature, 999), 'invalid'));
  test('a missing signature', () => assert.equal(signer.check(path, '1000', undefined, 999), 'invalid'));
  test('a truncated signature', () => assert.equal(signer.check(path, '1000', signature.slice(1), 999), 'invalid'));
  test('another secret', () =>
    assert.equal(new UrlSigner(Buffer.alloc(32, 8)).check(path, '1000', signature, 999), 'invalid'));
});

describe('openDatabase (SQLite)', () => {
  test('adds the columns an older database lacks, once, keeping its rows', async () => {
    const dir = await tempDir('fx-sqlite-');
    try {
      const file = join(dir.path, 'fx.sqlite');
      // The idempotency table as it first shipped, with a row in flight.
      const old = new Database(file);
      old.exec(`CREATE TABLE idempotency_keys (credential_id TEXT NOT NULL, endpoint TEXT NOT NULL, key TEXT NOT NULL,
        request_hash TEXT NOT NULL, state TEXT NOT NULL, status INTEGER, body TEXT, created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL, PRIMARY KEY (credential_id, endpoint, key))`);
      old.exec(`INSERT INTO idempotency_keys VALUES ('c', 'e', 'k', 'h', 'in_flight', NULL, NULL, 1, 2)`);
      old.close();
      for (let open = 0; open < 2; open++) {
        const db = openDatabase(file);
        const columns = (db.pragma('table_info(idempotency_keys)') as { name: string }[]).map(({ name }) => name);
        assert.deepEqual(
          ADDED_COLUMNS.filter(({ column }) => !columns.includes(column)),
          [],
          `opened ${open + 1} time(s)`,
        );
        assert.deepEqual(db.prepare('SELECT key, claim FROM idempotency_keys').all(), [{ key: 'k', claim: null }]);
        db.close();
      }
    } finally {
      await dir.cleanup();
    }
  });
});

describe('makeWorkDir / removeWorkDir', () => {
  test("two runs of one job get folders of their own; the render's folder goes with its last run", async () => {
    const dataDir = await tempDir('fx-work-');
    try {
      // A worker whose lease expired and the job's new holder, running the same chunk at once.
      const [stale, holder] = await Promise.all([
        makeWorkDir(dataDir.path, 'rnd_1', 'chunk-0'),
        makeWorkDir(dataDir.path, 'rnd_1', 'chunk-0'),
      ]);
      assert.notEqual(stale, holder);
      await writeFile(join(holder, 'chunk.mp4'), 'the holder’s file');
      await removeWorkDir(stale);
      assert.equal(await readFile(join(holder, 'chunk.mp4'), 'utf8'), 'the holder’s file');
      await removeWorkDir(holder);
      assert.deepEqual(await readdir(join(dataDir.path, 'work')), []);
    } finally {
      await dataDir.cleanup();
    }
  });
});
