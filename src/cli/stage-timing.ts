/**
 * Elapsed time and an estimate of what is left, per stage (and batch row) of a long command: `fx render` and
 * `fx cloud render` print them beside the percentage, and `--json` progress events carry them in seconds.
 */

/** No estimate before this share of a stage, nor this soon after it started: the first frames say little. */
const ESTIMATE_FROM = 0.02;
const ESTIMATE_AFTER_MS = 1000;

export interface StageTime {
  readonly elapsedMs: number;
  /** What is left at the pace so far, once it can be told. */
  readonly leftMs: number | undefined;
}

export class StageTimer {
  readonly #started = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** How long the stage `key` has run (since its first report) and, from `fraction` done, how long it has left. */
  read(key: string, fraction: number | undefined): StageTime {
    const now = this.now();
    const started = this.#started.get(key) ?? now;
    this.#started.set(key, started);
    const elapsedMs = now - started;
    const leftMs =
      fraction !== undefined && fraction >= ESTIMATE_FROM && elapsedMs >= ESTIMATE_AFTER_MS
        ? Math.max(0, (elapsedMs * (1 - fraction)) / fraction)
        : undefined;
    return { elapsedMs, leftMs };
  }
}

/** `0:07`, `12:03`, `1:02:03`. */
export function clockText(ms: number): string {
  const total = Math.round(ms / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** ` · 0:12 elapsed, about 0:17 left` (the estimate once it can be told). */
export function timeText({ elapsedMs, leftMs }: StageTime): string {
  return ` · ${clockText(elapsedMs)} elapsed${leftMs === undefined ? '' : `, about ${clockText(leftMs)} left`}`;
}

/** ` (frame 126/300)` and its counts for `--json`, while frames render (none before the total is known). */
export function frameCounts(
  done: number,
  total: number | undefined,
): { readonly text: string; readonly counts: Record<string, number> } {
  if (!total) return { text: '', counts: {} };
  return { text: ` (frame ${done}/${total})`, counts: { frames_done: done, frames_total: total } };
}
