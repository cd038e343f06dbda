// Import circles in src/: two modules that need each other cannot be read, tested or moved apart. The circles that
// exist are listed below, to be opened one by one (issue 30 §5); a new one fails this test, and so does an entry of
// the list that no longer is a circle (take it off).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Known circles, each as its files in sorted order joined by " ⇄ ". */
const KNOWN = new Set([
  'src/elements/composition/fx-composition.ts ⇄ src/elements/composition/player-controls.ts',
  'src/render/audio.ts ⇄ src/render/capture-worker.ts ⇄ src/render/frame-calls.ts',
  'src/runtime/compile/context.ts ⇄ src/runtime/compile/loader.ts ⇄ src/runtime/compile/missing-files.ts',
  'src/runtime/declarations.ts ⇄ src/runtime/values.ts',
  'src/service/jobs/crash-recovery.ts ⇄ src/service/jobs/render-job.ts',
]);

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

test('no import circle in src/ beyond the known ones', () => {
  const found = circles(importGraph());
  assert.deepEqual(
    found.filter((circle) => !KNOWN.has(circle)),
    [],
  );
  assert.deepEqual(
    [...KNOWN].filter((circle) => !found.includes(circle)),
    [],
    'no longer circles: take them off the list',
  );
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
