import { FxError } from '../runtime/errors.js';

export const CsvErrorCode = {
  /** A quoted field is not closed, text follows a closing quote, or a row has more fields than the header. */
  csvInvalid: 'csv_invalid',
} as const;

/**
 * Rows of a CSV text (RFC 4180: `,` separated, `"` quoted with `""` inside, CRLF or LF line ends, a header row
 * naming the columns) as objects of strings. Blank lines are skipped; a row shorter than the header leaves the
 * missing columns out, so they keep their defaults.
 *
 * @example
 * parseCsv('title,count\n"Hello, you",3\n'); // [{ title: 'Hello, you', count: '3' }]
 */
export function parseCsv(text: string): Record<string, string>[] {
  return csvRows(text).map((row) => row.values);
}

/** {@link parseCsv}'s rows with the line each starts on (1-based, the header's line counted): what errors name. */
export function csvRows(text: string): { values: Record<string, string>; line: number }[] {
  const [header, ...rows] = csvRecords(text.startsWith('\ufeff') ? text.slice(1) : text);
  if (!header) return [];
  const seen = new Set<string>();
  header.fields.forEach((name, column) => {
    if (name === '' || seen.has(name))
      throw csvError(1, `column ${column + 1} of the header is ${name === '' ? 'empty' : `a second "${name}"`}`);
    seen.add(name);
  });
  return rows.map(({ fields, line }) => {
    if (fields.length > header.fields.length)
      throw csvError(line, `has ${fields.length} fields, the header names ${header.fields.length}`);
    return { values: Object.fromEntries(fields.map((field, column) => [header.fields[column]!, field])), line };
  });
}

/** The records of `text`, each a list of fields and the line it starts on, blank lines left out. */
function csvRecords(text: string): { fields: string[]; line: number }[] {
  const records: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let at = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (fields.length > 1 || fields[0] !== '') records.push({ fields, line: start });
    fields = [];
    start = ++line;
  };
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"' && field === '') {
      const close = closingQuote(text, at + 1, line);
      field = text.slice(at + 1, close).replaceAll('""', '"');
      line += countNewlines(field);
      at = close + 1;
      const next = text[at];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        throw csvError(line, 'has text after a closing quote');
      continue;
    }
    if (char === ',') endField();
    else if (char === '\n') endRecord();
    else if (char === '\r') {
      if (text[at + 1] === '\n') at++;
      endRecord();
    } else field += char;
    at++;
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

function closingQuote(text: string, from: number, line: number): number {
  for (let at = from; at < text.length; at++) {
    if (text[at] !== '"') continue;
    if (text[at + 1] === '"') at++;
    else return at;
  }
  throw csvError(line, 'opens a quoted field that never closes');
}

const countNewlines = (value: string) => value.split('\n').length - 1;

const csvError = (line: number, message: string) => new FxError(CsvErrorCode.csvInvalid, `CSV line ${line} ${message}`);
