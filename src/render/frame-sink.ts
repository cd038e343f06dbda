/**
 * Puts frames captured by several workers (in any order) back in order for the encoder. A worker that runs
 * `window` frames ahead of the next one to write waits, so memory stays bounded.
 */
export class FrameSink {
  #next = 0;
  #waiting = new Map<number, Buffer>();
  #wakeups: (() => void)[] = [];
  #writing: Promise<void> = Promise.resolve();
  #error: unknown;

  constructor(
    private readonly total: number,
    private readonly write: (index: number, frame: Buffer) => Promise<void>,
    private readonly window = 8,
  ) {}

  /** Frames written so far. */
  get written(): number {
    return this.#next;
  }

  /** Hands over frame `index`; resolves once it may be released (written, or within the window). */
  async put(index: number, frame: Buffer): Promise<void> {
    while (index >= this.#next + this.window) {
      if (this.#error) throw this.#error;
      await new Promise<void>((resolve) => this.#wakeups.push(resolve));
    }
    if (this.#error) throw this.#error;
    this.#waiting.set(index, frame);
    this.#writing = this.#writing.then(() => this.#drain());
    await this.#writing;
    if (this.#error) throw this.#error;
  }

  /** Wakes waiting workers so they see the failure. */
  fail(error: unknown): void {
    this.#error ??= error;
    this.#wake();
  }

  get complete(): boolean {
    return this.#next >= this.total;
  }

  async #drain(): Promise<void> {
    if (this.#error) return;
    try {
      for (let frame = this.#waiting.get(this.#next); frame; frame = this.#waiting.get(this.#next)) {
        this.#waiting.delete(this.#next);
        await this.write(this.#next, frame);
        this.#next++;
        this.#wake();
      }
    } catch (error) {
      this.fail(error);
    }
  }

  #wake(): void {
    for (const wake of this.#wakeups.splice(0)) wake();
  }
}
