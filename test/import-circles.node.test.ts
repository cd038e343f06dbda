// Import circles in src/: two modules that need each other cannot be read, tested or moved apart. There are none
// (issue 30 §5 opened the last eight); a new one fails this test, naming its files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Each source file's relative imports and re-exports (type-only ones too: they tie the files as much). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => relative(ROOT, join(SRC, file)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)].map((match) =>
      normalize(join(dirname(file), match[1]!)).replace(/\.js$/, '.ts'),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1) found.push(group.sort().join(' ⇄ '));
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.sort();
}

test('no import circle in src/ (each found is its files in sorted order, joined by " ⇄ ")', () => {
  assert.deepEqual(circles(importGraph()), []);
});

test('a circle is found', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  assert.deepEqual(circles(graph), ['a.ts ⇄ b.ts ⇄ c.ts']);
});
