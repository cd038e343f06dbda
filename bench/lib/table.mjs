// Plain-text tables for the terminal: a header, a rule, and columns padded to their widest cell.

/**
 * Formats `rows` (objects) under `columns` (`{ key, title, align }`, align `left` or `right`) as lines of text.
 *
 * @example
 * formatTable([{ key: 'name', title: 'benchmark' }], [{ name: 'bindings' }]);
 */
export function formatTable(columns, rows) {
  const cells = rows.map((row) => columns.map((column) => String(row[column.key] ?? '')));
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...cells.map((line) => line[index].length)),
  );
  const pad = (text, index) =>
    columns[index].align === 'right' ? text.padStart(widths[index]) : text.padEnd(widths[index]);
  const header = columns
    .map((column, index) => pad(column.title, index))
    .join('  ')
    .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [header, rule, ...cells.map((line) => line.map(pad).join('  ').trimEnd())].join('\n');
}
