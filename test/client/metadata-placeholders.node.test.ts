/** fillMetadata: a batch's metadata filled from each row, one pass, refusing what a row cannot fill. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillMetadata } from '../../src/client/metadata-placeholders.js';
import { isFxError } from '../../src/runtime/errors.js';

const codeOf = (work: () => unknown) => {
  try {
    work();
    return 'filled';
  } catch (error) {
    return isFxError(error) ? error.code : `not an FxError: ${error}`;
  }
};

test('a value that is exactly "{id}" takes the row value as it is; inside text, as text', () => {
  const row = { id: 7, name: 'Ada', vip: true, address: { city: 'Oslo' } };
  assert.deepEqual(
    fillMetadata(
      { id: '{id}', vip: '{vip}', address: '{address}', note: 'for {name} (#{id})', at: '{index}', kept: 3 },
      row,
      4,
    ),
    { id: 7, vip: true, address: { city: 'Oslo' }, note: 'for Ada (#7)', at: 4, kept: 3 },
  );
});

test('at any depth, in arrays too; keys are kept as written', () => {
  assert.deepEqual(fillMetadata({ '{name}': { tags: ['{name}', 'x-{name}'] } }, { name: 'A' }, 0), {
    '{name}': { tags: ['A', 'x-A'] },
  });
});

test("one pass: a row value's braces are never read as a placeholder", () => {
  assert.deepEqual(fillMetadata({ a: '{name}', b: 'n={name}' }, { name: '{secret}', secret: 's' }, 0), {
    a: '{secret}',
    b: 'n={secret}',
  });
});

test("a row's own `index` wins over the row number", () => {
  assert.deepEqual(fillMetadata({ at: '{index}' }, { index: 'A1' }, 0), { at: 'A1' });
});

test('a placeholder the row lacks: batch_metadata_placeholder_invalid', () => {
  assert.equal(
    codeOf(() => fillMetadata({ order: '{order}' }, {}, 0)),
    'batch_metadata_placeholder_invalid',
  );
  assert.equal(
    codeOf(() => fillMetadata({ deep: { note: 'for {who}' } }, {}, 1)),
    'batch_metadata_placeholder_invalid',
  );
});

test('an object value inside text: batch_metadata_placeholder_invalid', () => {
  assert.equal(
    codeOf(() => fillMetadata({ note: 'at {address}' }, { address: { city: 'Oslo' } }, 0)),
    'batch_metadata_placeholder_invalid',
  );
});

test('the template is not changed', () => {
  const template = { a: '{x}', b: { c: ['{x}'] } };
  fillMetadata(template, { x: 1 }, 0);
  assert.deepEqual(template, { a: '{x}', b: { c: ['{x}'] } });
});
