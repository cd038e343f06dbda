// Every module of src/runtime (frame/ aside: it runs inside the composition's document) must load in Node, with no
// DOM: the renderer, the service and `fx-sdk/node` import them there. A module that reads `document`, `window` or
// `location` while it loads fails here with a ReferenceError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RUNTIME = new URL('../../src/runtime/', import.meta.url);
/** Installs a DOMParser global when loaded, so it goes last: the others must load without one. */
const PARSER_ADAPTER = 'dom-parser.node.ts';
const modules = readdirSync(fileURLToPath(RUNTIME), { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => entry.name)
  .sort((a, b) => Number(a === PARSER_ADAPTER) - Number(b === PARSER_ADAPTER) || a.localeCompare(b));

test('there is no DOM in this process', () => {
  for (const name of ['document', 'window', 'location', 'DOMParser', 'HTMLElement'])
    assert.equal(name in globalThis, false, `${name} is defined`);
});

test('src/runtime has modules to check (the listing found them)', () => {
  assert.ok(modules.length > 30, `found ${modules.length}`);
  assert.equal(modules.at(-1), PARSER_ADAPTER);
});

for (const name of modules) {
  test(`src/runtime/${name} imports in Node without a DOM`, async () => {
    const module: Record<string, unknown> = await import(new URL(name, RUNTIME).href);
    assert.ok(typeof module === 'object');
  });
}
