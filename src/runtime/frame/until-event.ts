/**
 * Resolves at the first of `events` on `target`, or after `ms` — whichever comes first — and removes every listener
 * and the timer then. Media events may never come (no source, a broken file), so every wait has a deadline.
 */
export function untilEvent(target: EventTarget, events: readonly string[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const name of events) target.removeEventListener(name, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const name of events) target.addEventListener(name, done);
  });
}
