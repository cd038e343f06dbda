/**
 * Whether a parsed JSON value nests deeper than `limit` (an object or array is one level, scalars none), found
 * without recursion, so a hostile value cannot overflow the stack while being measured. Stops at the first
 * container past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
