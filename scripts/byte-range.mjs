// Single `Range: bytes=…` requests for the development servers (npm start's composition files, the bench origin):
// media elements seek with byte ranges, and without them a seek past what is buffered lands back at 0.

/**
 * The inclusive `[first, last]` byte positions a single-range `Range` header asks for; `undefined` when there is no
 * usable header (the whole body is sent), `null` when the range lies outside the body.
 */
export function byteRange(header, size) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] =
    match[1] === ''
      ? [Math.max(0, size - Number(match[2])), size - 1]
      : [Number(match[1]), match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)];
  return first <= last && first < size ? [first, last] : null;
}
