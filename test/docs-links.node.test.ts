// Links between the project's Markdown pages: every relative link names a file that exists, and every `#anchor` a
// heading of the page it points into (GitHub's anchors), so moving a section cannot leave a link dangling.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Folders whose Markdown is not ours (installed packages, build output, app work folders). */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.fx', 'tools']);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, text] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = text!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The link targets of a page: `[text](target)` and `<img src>`, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  const images = [...prose.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
  return [...links, ...images];
}

const pages = markdownFiles(ROOT);

test('the docs pages are found', () => {
  const names = pages.map((page) => relative(ROOT, page));
  for (const expected of ['README.md', 'CONTRIBUTING.md', 'docs/elements.md', 'docs/errors.md', 'docs/service.md'])
    assert.ok(names.includes(expected), expected);
});

for (const page of pages) {
  test(`links in ${relative(ROOT, page)} lead somewhere`, () => {
    const markdown = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: …
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor === undefined || statSync(target).isDirectory() || !target.endsWith('.md')) continue;
      if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no heading with that anchor`);
    }
    assert.deepEqual(broken, []);
  });
}

test('anchors are made as GitHub makes them', () => {
  const anchors = anchorsOf(
    '# The reference render service (`/v3`)\n## S3-compatible storage (storage/blob-storage/s3.ts)\n## Run it\n## Run it\n',
  );
  assert.deepEqual(
    [...anchors],
    ['the-reference-render-service-v3', 's3-compatible-storage-storageblob-storages3ts', 'run-it', 'run-it-1'],
  );
});
