// The shipped JavaScript is ASCII only (non-ASCII text as escapes or HTML entities): a page without
// `<meta charset="utf-8">`, served without a charset, decodes a script in windows-1252, and the controls would read
// "1Ã—" and "âš". Needs dist/ built, as `npm test` does before this.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const NON_ASCII = /[^\x00-\x7f]/;

for (const file of readdirSync(dist).filter((name) => name.endsWith('.js'))) {
  test(`dist/${file} is ASCII only`, () => {
    const lines = readFileSync(dist + file, 'utf8').split('\n');
    const found = lines.findIndex((line) => NON_ASCII.test(line));
    assert.equal(found, -1, `line ${found + 1}: ${lines[found]?.trim().slice(0, 120)}`);
  });
}
