import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VALUE_LIMITS } from '../../src/runtime/value-bounds.js';
import { sameValues } from '../../src/elements/internal/values-equal.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

test('equal by content, whatever the key order or object identity', () => {
  assert.equal(
    sameValues({ a: 1, b: [1, { c: 'x' }], n: Number.NaN }, { b: [1, { c: 'x' }], n: Number.NaN, a: 1 }),
    true,
  );
  assert.equal(sameValues({}, {}), true);
});

test('a difference anywhere counts', () => {
  for (const [a, b] of [
    [{ a: 1 }, { a: 2 }],
    [{ a: 1 }, { a: 1, b: undefined }],
    [
      { a: 1, b: undefined },
      { a: 1, c: undefined },
    ],
    [{ a: [1, 2] }, { a: [1] }],
    [{ a: [1] }, { a: { 0: 1 } }],
    [{ a: 0 }, { a: -0 }],
    [{ a: new Date(0) }, { a: new Date(0) }],
  ] as const)
    assert.equal(sameValues(a, b), false, JSON.stringify([a, b]));
});

test('past the value bounds the answer is "not equal", without walking or overflowing', () => {
  assert.equal(sameValues(nested(20_000), nested(20_000)), false);
  assert.equal(sameValues(nested(VALUE_LIMITS.depth - 1), nested(VALUE_LIMITS.depth - 1)), true);
  const holes = (): unknown[] => Object.assign([], { length: 2 ** 27 });
  const started = performance.now();
  assert.equal(sameValues({ list: holes() }, { list: holes() }), false);
  assert.ok(performance.now() - started < 100);
});
