/** The longest a seek waits for the one running: one that hangs (a frame that gets no animation frames) holds none. */
export const MAX_WAIT_MS = 1000;

export interface QueuedSeek {
  id: number;
  time: number;
  /** Part of a scrub, as decided when it arrived (see `PaintSettler.partOfScrub`). */
  scrubbing: boolean;
}

/** Runs one seek (to the newest waiting time) and resolves with the time it landed on. */
export type RunSeek = (seek: QueuedSeek) => Promise<number>;
/** Answers one seek, overtaken or not, with the time the seek that ran landed on. */
export type AnswerSeek = (id: number, time: number) => void;

/**
 * The frame's seeks, one at a time. A seek that arrives while another runs waits until that one is answered (at most
 * {@link MAX_WAIT_MS}), and of those that waited only the newest runs: the others are answered with it. Why: a
 * `<video>` frame presented while the compositor still takes in the previous seek's frame could stay off screen for
 * about a second in Chromium under load: the host's screenshot after `await seek(1.3)`, posted right after the
 * poster seek, showed the poster's clip frame in about 1 of 16 tries on two busy cores, while the video reported its
 * new frame presented (never in 220 tries with seeks in turn).
 */
export class SeekQueue {
  #waiting: QueuedSeek[] = [];
  /** The batch running, if any. */
  #busy: Promise<void> | undefined;

  constructor(
    private readonly run: RunSeek,
    private readonly answer: AnswerSeek,
  ) {}

  push(seek: QueuedSeek): void {
    this.#waiting.push(seek);
    if (!this.#busy) this.#next();
  }

  /**
   * Starts the waiting seeks now, without waiting for the one running: the host's messages take effect in order, and
   * one that must follow them (play, pause) is about to. Playback replaces the picture anyway. True when some were
   * waiting (they take effect once the player is ready, in the order of everything awaiting that).
   */
  flush(): boolean {
    if (this.#waiting.length === 0) return false;
    this.#next();
    return true;
  }

  #next(): void {
    const batch = this.#waiting.splice(0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const running = Promise.race([
      this.#runBatch(batch),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, MAX_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    this.#busy = running;
    void running.then(() => {
      // A flush started a later batch meanwhile: that one goes on with the queue.
      if (this.#busy !== running) return;
      this.#busy = undefined;
      if (this.#waiting.length > 0) this.#next();
    });
  }

  async #runBatch(batch: QueuedSeek[]): Promise<void> {
    // A seek that fails is not answered (the host's wait times out), as before; the next still runs.
    const time = await this.run(batch.at(-1)!).catch(() => undefined);
    if (time !== undefined) for (const seek of batch) this.answer(seek.id, time);
  }
}
