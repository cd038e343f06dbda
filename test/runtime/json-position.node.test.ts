import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonFailure, positionAt, readFailure } from '../../src/runtime/json-position.js';

test('positionAt counts lines ending in \\n, \\r\\n or \\r', () => {
  assert.deepEqual(positionAt('ab\ncd', 4), { line: 2, column: 2 });
  assert.deepEqual(positionAt('ab\r\ncd', 5), { line: 2, column: 2 });
  assert.deepEqual(positionAt('a\rb\rc', 4), { line: 3, column: 1 });
  assert.deepEqual(positionAt('abc', 0), { line: 1, column: 1 });
});

test("each engine's wording gives the same reason and offset", () => {
  const text = '[1,\n 2\n 3]';
  const v8 = jsonFailure(text)!;
  assert.equal(v8.offset, 8);
  assert.equal(v8.reason, "Expected ',' or ']' after array element");
  const spiderMonkey = readFailure(
    text,
    "JSON.parse: expected ',' or ']' after array element at line 3 column 2 of the JSON data",
  );
  assert.deepEqual(spiderMonkey, { reason: "expected ',' or ']' after array element", offset: 8 });
  const newerV8 = readFailure(text, "Expected ',' or ']' after array element in JSON at position 8 (line 3 column 2)");
  assert.deepEqual(newerV8, v8);
  assert.deepEqual(readFailure(text, "JSON Parse error: Expected ']'"), {
    reason: "JSON Parse error: Expected ']'",
    offset: undefined,
  });
  assert.equal(jsonFailure('[1]'), undefined);
});
