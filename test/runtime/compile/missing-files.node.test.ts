// The missing-file rule without a browser: missingFilesIn's bound, and missingFilesInProject's lookups.
import '../../../src/runtime/dom-parser.node.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_MISSING_PLACES, missingFilesIn } from '../../../src/runtime/compile/missing-files.js';
import { missingFilesInProject } from '../../../src/runtime/compile/missing-files-project.js';

const entry = (body: string) =>
  `<!doctype html><html><body><div data-composition-id="m" data-width="64" data-height="48" data-duration="1">${body}</div></body></html>`;
const none = () => false;

describe('missingFilesIn', () => {
  test('each place once, at most 50, then one count', () => {
    const html = entry(
      Array.from({ length: 70 }, (_, index) => `<img src="m/${index % 60}.png" alt="">`).join('') +
        `<style>${'p { background: url(bg.png) } '.repeat(1000)}</style>`,
    );
    const issues = missingFilesIn(html, 'index.html', none);
    assert.equal(issues.length, MAX_MISSING_PLACES + 1);
    assert.equal(issues.at(-1)!.message, 'and 11 more places name files the project does not have');
    assert.equal(new Set(issues.map((found) => found.path.join('/'))).size, issues.length);
  });

  test('a stylesheet that names one missing file 150 000 times is one place, quickly', () => {
    const css = 'p { background: url(x.png) } '.repeat(150_000);
    const started = performance.now();
    const issues = missingFilesIn(
      entry('<link rel="stylesheet" href="a.css">'),
      'index.html',
      (path) => path === 'a.css',
      {
        read: () => css,
      },
    );
    assert.deepEqual(
      issues.map((found) => found.path),
      [['a.css', 'url()', 'x.png']],
    );
    assert.ok(performance.now() - started < 5_000);
  });

  test("a stylesheet's url()s outside the project, data: and fragments are not files; a missing stylesheet is not read", () => {
    const read: string[] = [];
    const issues = missingFilesIn(
      entry('<link rel="stylesheet" href="s/a.css"><link rel="stylesheet" href="gone.css">'),
      'index.html',
      (path) => path === 's/a.css',
      {
        read: (path) => {
          read.push(path);
          return 'a { b: url(data:image/png;base64,AA==) url(#f) url(https://cdn.example/x.png) url("") url(../../../../up.png) }';
        },
      },
    );
    assert.deepEqual(read, ['s/a.css']);
    assert.deepEqual(
      issues.map((found) => found.path),
      [
        ['s/a.css', 'url()', 'up.png'],
        ['index.html', '<link href>', 'gone.css'],
      ],
    );
  });
});

describe('missingFilesInProject', () => {
  test('follows sub-compositions and their stylesheets, looks each file up once', async () => {
    const files: Record<string, string> = {
      'index.html': entry('<div data-composition-src="parts/a.html"></div><img src="parts/a.html" alt="">'),
      'parts/a.html':
        '<div data-composition-id="a"><link rel="stylesheet" href="a.css"><div data-composition-src="a.html"></div></div>',
      'parts/a.css': 'b { c: url(f.woff2) }',
    };
    const asked: string[] = [];
    const issues = await missingFilesInProject(
      files['index.html']!,
      'index.html',
      {
        has: (path) => (asked.push(path), Object.hasOwn(files, path)),
        read: async (path) => files[path],
      },
      { depth: 8, maxFiles: 1000 },
    );
    assert.deepEqual(
      issues.map((found) => found.path),
      [['parts/a.css', 'url()', 'parts/f.woff2']],
    );
    assert.deepEqual([...asked].sort(), ['parts/a.css', 'parts/a.html', 'parts/f.woff2']);
  });

  test('looks up at most maxFiles files; the rest count as there', async () => {
    const html = entry(Array.from({ length: 30 }, (_, index) => `<img src="${index}.png" alt="">`).join(''));
    let asked = 0;
    const issues = await missingFilesInProject(
      html,
      'index.html',
      { has: () => (asked++, false), read: () => undefined },
      { depth: 8, maxFiles: 10 },
    );
    assert.equal(asked, 10);
    assert.equal(issues.length, 10);
  });

  test('a lookup that fails rejects with its error (the caller answers, nothing half-done)', async () => {
    await assert.rejects(
      missingFilesInProject(
        entry('<img src="a.png" alt="">'),
        'index.html',
        { has: () => Promise.reject(new Error('storage down')), read: () => undefined },
        { depth: 8, maxFiles: 10 },
      ),
      /storage down/,
    );
  });
});
