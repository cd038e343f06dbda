import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCsv } from '../../src/client/csv.js';
import { isFxError } from '../../src/runtime/errors.js';

const refused = (text: string, message: RegExp) =>
  assert.throws(
    () => parseCsv(text),
    (error) => isFxError(error, 'csv_invalid') && message.test(error.message),
  );

describe('parseCsv', () => {
  it('reads a header and rows, quoted fields with commas, quotes and line breaks', () => {
    assert.deepEqual(parseCsv('title,count\n"Hello, you",3\n"say ""hi""","two\nlines"\n'), [
      { title: 'Hello, you', count: '3' },
      { title: 'say "hi"', count: 'two\nlines' },
    ]);
  });

  it('takes CRLF and a byte-order mark, skips blank lines, keeps empty fields', () => {
    assert.deepEqual(parseCsv('\ufeffa,b\r\n\r\n1,\r\n,2'), [
      { a: '1', b: '' },
      { a: '', b: '2' },
    ]);
  });

  it('leaves out the columns a short row does not reach', () => {
    assert.deepEqual(parseCsv('a,b,c\n1'), [{ a: '1' }]);
  });

  it('reads nothing from an empty text or a header alone', () => {
    assert.deepEqual(parseCsv(''), []);
    assert.deepEqual(parseCsv('a,b\n'), []);
  });

  it('refuses malformed text with the line it is on', () => {
    refused('a\n"open', /line 2 opens a quoted field that never closes/);
    refused('a\n"x"y', /line 2 has text after a closing quote/);
    refused('a,b\n1,2,3', /line 2 has 3 fields, the header names 2/);
    refused('a,,b\n', /column 2 of the header is empty/);
    refused('a,a\n', /a second "a"/);
  });

  it('counts lines inside quoted fields', () => {
    refused('a\n"x\ny"\n1,2', /line 4 has 2 fields/);
  });
});
