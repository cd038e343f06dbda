import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonFailure, positionAt, readFailure } from '../../src/runtime/json-position.js';
import { jsonStopOffset } from '../../src/runtime/json-stop.js';

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
  // JavaScriptCore names no position: the text is read for it.
  assert.deepEqual(readFailure(text, "JSON Parse error: Expected ']'"), { reason: "Expected ']'", offset: 8 });
  assert.equal(jsonFailure('[1]'), undefined);
});

/** Every text one edit away from `json`: a character dropped, a `}` put before it, the text cut there. */
function damaged(json: string): string[] {
  return [...json].flatMap((_, at) => [
    json.slice(0, at) + json.slice(at + 1),
    json.slice(0, at) + '}' + json.slice(at),
    json.slice(0, at),
  ]);
}

test('jsonStopOffset stops where V8 says, on every damaged copy of a declaration that V8 gives a position for', () => {
  const declarations = JSON.stringify(
    [
      { id: 'title', type: 'string', label: 'Caf\u00e9 "A"\n', default: 'x' },
      { id: 'n', type: 'number', default: -1.5e3, min: 0, max: 10.25 },
      { id: 'on', type: 'boolean', default: true, options: [null, false, [], {}] },
    ],
    null,
    2,
  ).replace('Café', 'Caf\\u00e9');
  let compared = 0;
  for (const text of damaged(declarations)) {
    let v8: number | undefined;
    try {
      JSON.parse(text);
    } catch (error) {
      const at = /at position (\d+)/.exec((error as Error).message);
      if (!at) continue;
      v8 = Number(at[1]);
    }
    assert.equal(jsonStopOffset(text), v8, JSON.stringify(text));
    compared++;
  }
  assert.ok(compared > 300, `${compared} texts compared`);
});

test('jsonStopOffset: JSON is no stop; hostile depth is a refusal to guess, not a stack overflow', () => {
  assert.equal(jsonStopOffset(' {"a": [1, "b", null]} '), undefined);
  assert.equal(jsonStopOffset(''), 0);
  assert.equal(jsonStopOffset('[1] x'), 4);
  assert.equal(jsonStopOffset('['.repeat(100_000)), undefined);
  assert.equal(jsonStopOffset('"\u0001"'), 1);
});
