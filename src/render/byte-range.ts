/** An inclusive byte range of a file. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Reads an HTTP `Range` header against a file of `size` bytes: `undefined` means "send the whole file" (no header,
 * another unit, or several ranges, which a server may answer in full), `'unsatisfiable'` means 416.
 * Forms: `bytes=0-99`, `bytes=100-` (to the end), `bytes=-100` (the last 100 bytes).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match)
    return /^\s*bytes\s*=.*,/i.test(header) ? undefined : /^\s*bytes\s*=/i.test(header) ? 'unsatisfiable' : undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
