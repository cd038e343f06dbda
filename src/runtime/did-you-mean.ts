/** The declared id a mistyped one most likely meant: "titel" → "title", "Title" → "title". */

/** Edits (insert, delete, replace, swap two neighbours) between `a` and `b`, or more than `limit` once past it. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/** The closest of `known` to `id` within a third of its length (at least one edit), or `undefined`. */
export function closestId(id: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(id.length / 3));
  let best: { id: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = candidate.toLowerCase() === id.toLowerCase() ? 0.5 : distance(id, candidate, limit);
    if (edits <= limit && (!best || edits < best.edits)) best = { id: candidate, edits };
  }
  return best?.id;
}

/** `variable "titel" is not declared by this composition; did you mean "title"?` */
export function undeclaredMessage(id: string, declared: Iterable<string>): string {
  const near = closestId(id, declared);
  return `variable "${id}" is not declared by this composition${near ? `; did you mean "${near}"?` : ''}`;
}
