/**
 * Delivers the latest of many updates at most once per animation frame: a frame can post thousands of `time`
 * messages in a burst, and each must not become a `timeupdate` event. A hidden page gets no animation frames, so
 * there a task stands in.
 */
export class OncePerFrame<T> {
  #waiting: T | undefined;
  #frame = 0;
  #timer = 0;

  constructor(private readonly deliver: (value: T) => void) {}

  /** Keeps `merge(the update waiting, if any)` for the next animation frame. */
  push(merge: (waiting: T | undefined) => T): void {
    this.#waiting = merge(this.#waiting);
    if (this.#frame || this.#timer) return;
    if (document.visibilityState === 'hidden') this.#timer = window.setTimeout(this.flush);
    else this.#frame = requestAnimationFrame(this.flush);
  }

  /** Delivers the waiting update now, if there is one. */
  flush = (): void => {
    const waiting = this.#waiting;
    this.cancel();
    if (waiting !== undefined) this.deliver(waiting);
  };

  /** Drops the waiting update. */
  cancel(): void {
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#timer);
    this.#frame = this.#timer = 0;
    this.#waiting = undefined;
  }
}
