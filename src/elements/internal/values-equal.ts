/** Whether two `variables` values are equal by content: a re-render that builds an equal object is a no-op. */
import { VALUE_LIMITS } from '../../runtime/value-bounds.js';

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * True when `a` and `b` hold the same JSON-like content (plain objects and arrays compared by their entries, other
 * objects by identity, numbers with `Object.is`). Walks without recursion within {@link VALUE_LIMITS}: past them it
 * answers `false`, so the caller's bounds check (value-bounds.ts) then reports the value.
 */
export function sameValues(a: unknown, b: unknown): boolean {
  let entries = 0;
  const pending: [unknown, unknown, number][] = [[a, b, 0]];
  while (pending.length > 0) {
    const [x, y, depth] = pending.pop()!;
    if (Object.is(x, y)) continue;
    if (depth >= VALUE_LIMITS.depth) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      entries += x.length;
      if (x.length !== y.length || entries > VALUE_LIMITS.entries) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i], depth + 1]);
    } else if (isPlain(x) && isPlain(y)) {
      const keys = Object.keys(x);
      entries += keys.length;
      if (keys.length !== Object.keys(y).length || entries > VALUE_LIMITS.entries) return false;
      for (const key of keys) {
        if (!Object.hasOwn(y, key)) return false;
        pending.push([x[key], y[key], depth + 1]);
      }
    } else return false;
  }
  return true;
}
