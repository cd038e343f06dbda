import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchRows } from '../../src/client/batch-rows.js';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';
import { isFxError } from '../../src/runtime/errors.js';

const { declarations } = parseVariableDeclarations([
  { id: 'title', type: 'string', label: 'Title', default: 'Hi' },
  { id: 'count', type: 'number', label: 'Count', default: 1 },
  { id: 'dark', type: 'boolean', label: 'Dark', default: false },
]);

describe('batchRows', () => {
  it('merges each row over the base values', () => {
    const { rows, warnings } = batchRows([{ title: 'A' }, { count: 2 }], { title: 'Base', dark: true }, declarations);
    assert.deepEqual(rows, [
      { title: 'A', dark: true },
      { title: 'Base', dark: true, count: 2 },
    ]);
    assert.deepEqual(warnings, []);
  });

  it('reads CSV cells by the declared type of their column; an empty cell keeps the default', () => {
    const { rows } = batchRows('title,count,dark\nA,3,TRUE\n,,false\n', {}, declarations);
    assert.deepEqual(rows, [{ title: 'A', count: 3, dark: true }, { dark: false }]);
  });

  it('refuses the whole batch when any row has an error, listing every row with one', () => {
    assert.throws(
      () => batchRows('title,count\nA,3\nB,three\nC,x\n', {}, declarations),
      (error) =>
        isFxError(error, 'batch_rows_refused') &&
        error.issues.map((found) => found.path.join('.')).join() === 'rows.1.count,rows.2.count',
    );
  });

  it("names a CSV row's line (1-based, the header counted; a quoted cell may span lines)", () => {
    assert.throws(
      () => batchRows('title,count\nA,3\n"two\nlines",three\n\nC,x\n', {}, declarations),
      (error) =>
        isFxError(error, 'batch_rows_refused') &&
        error.issues.map((found) => /\(CSV line (\d+)\)$/.exec(found.message)?.[1]).join() === '3,6' &&
        /first: .* \(CSV line 3\) \(row 1\)$/.test(error.message),
    );
  });

  it('returns warnings with their row, and refuses them when strict', () => {
    const { warnings } = batchRows([{ title: 'A' }, { subtitle: 'x' }], {}, declarations);
    assert.deepEqual(
      warnings.map((found) => [found.code, found.path]),
      [['undeclared', ['rows', 1, 'subtitle']]],
    );
    assert.throws(
      () => batchRows([{ subtitle: 'x' }], {}, declarations, true),
      (error) => isFxError(error, 'batch_rows_refused'),
    );
  });

  it('refuses rows that are not objects, before checking any values', () => {
    for (const rows of [[null], [[1]], ['x'], 42 as never]) {
      assert.throws(
        () => batchRows(rows, {}, declarations),
        (error) => isFxError(error, 'batch_rows_invalid'),
        JSON.stringify(rows),
      );
    }
  });
});

describe('batchRows with nothing to render', () => {
  it('refuses an empty list and a header-only CSV', () => {
    for (const rows of [[], 'title,count\n']) {
      assert.throws(
        () => batchRows(rows, {}, declarations),
        (error) => isFxError(error, 'batch_rows_invalid'),
        JSON.stringify(rows),
      );
    }
  });
});
