/** `poster-time`: which frame a paused, never-played element shows, in seconds or as a share of the duration. */

/** The middle: most compositions have animated in by then, where t = 0 is often empty (typed text, fades). */
export const DEFAULT_POSTER_TIME = '50%';

/**
 * Seconds into a composition of `duration` for a `poster-time` value: `"2.5"` (seconds) or `"40%"` (of the
 * duration). A value that is neither falls back to {@link DEFAULT_POSTER_TIME}; the caller clamps to the duration.
 */
export function posterSeconds(value: string | null | undefined, duration: number): number {
  const parsed = parse(value) ?? parse(DEFAULT_POSTER_TIME)!;
  return parsed.percent ? (parsed.number / 100) * duration : parsed.number;
}

function parse(value: string | null | undefined): { number: number; percent: boolean } | undefined {
  const text = (value ?? '').trim();
  const percent = text.endsWith('%');
  const number = Number(percent ? text.slice(0, -1) : text);
  return text !== '' && text !== '%' && Number.isFinite(number) && number >= 0 ? { number, percent } : undefined;
}
