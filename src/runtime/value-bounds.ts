/**
 * How big values may be: deeper or larger ones are refused before they reach the frame (or leave it). The preview
 * and the render service share the depth, so a value the preview takes is never refused at submit.
 */
export const VALUE_LIMITS = {
  /** Nesting of objects and arrays (`{ name, source }` is 2; real values never pass 3). */
  depth: 16,
  /** Object entries and array slots, all levels together. */
  entries: 10_000,
  /** Characters of all strings and keys together (a `data:` image fits). */
  chars: 32 * 1024 * 1024,
} as const;

/**
 * Why `value` is too deep or too large to use as variables, or `undefined` when it is within {@link VALUE_LIMITS}.
 * Walks without recursion and counts an array's length before walking it, so a 20 000-level nesting or a sparse
 * array of 2^27 holes is refused at once instead of blocking the page or overflowing a stack later.
 */
export function valueBoundsProblem(value: unknown, name = 'variables'): string | undefined {
  let entries = 0;
  let chars = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === 'string') chars += item.length;
    else if (typeof item === 'object' && item !== null) {
      if (depth >= VALUE_LIMITS.depth) return `"${name}" must nest at most ${VALUE_LIMITS.depth} levels, got deeper`;
      const keys = Array.isArray(item) ? undefined : Object.keys(item);
      entries += keys ? keys.length : (item as unknown[]).length;
      if (entries > VALUE_LIMITS.entries)
        return `"${name}" must hold at most ${VALUE_LIMITS.entries} entries in all, got more`;
      if (keys)
        for (const key of keys) pending.push([key, depth + 1], [(item as Record<string, unknown>)[key], depth + 1]);
      else for (const slot of item as unknown[]) pending.push([slot, depth + 1]);
    }
    if (chars > VALUE_LIMITS.chars)
      return `"${name}" must hold at most ${VALUE_LIMITS.chars} characters of text, got more`;
  }
  return undefined;
}
