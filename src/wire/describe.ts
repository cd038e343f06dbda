/**
 * A value as error messages quote it: JSON cut to 60 characters. The same rule as `describe` of
 * src/runtime/issues.ts, restated because src/wire imports nothing outside itself.
 */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const json = JSON.stringify(value);
    return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    return typeof value;
  }
}
