/** Undo and redo over snapshots of one value: the present, what came before it and what an undo set aside. */
export class UndoHistory<T> {
  #past: T[] = [];
  #future: T[] = [];

  constructor(
    private present: T,
    private readonly limit = 100,
  ) {}

  get current(): T {
    return this.present;
  }
  get canUndo(): boolean {
    return this.#past.length > 0;
  }
  get canRedo(): boolean {
    return this.#future.length > 0;
  }

  /** A new present; what an undo had set aside is dropped (a new branch). The oldest steps go past `limit`. */
  push(next: T): void {
    this.#past.push(this.present);
    if (this.#past.length > this.limit) this.#past.shift();
    this.#future = [];
    this.present = next;
  }

  /** Steps back; the new present, or `undefined` when there is nothing to undo. */
  undo(): T | undefined {
    const previous = this.#past.pop();
    if (previous === undefined) return undefined;
    this.#future.push(this.present);
    this.present = previous;
    return previous;
  }

  redo(): T | undefined {
    const next = this.#future.pop();
    if (next === undefined) return undefined;
    this.#past.push(this.present);
    this.present = next;
    return next;
  }

  /** Starts over at `present` (another composition was loaded). */
  reset(present: T): void {
    this.#past = [];
    this.#future = [];
    this.present = present;
  }
}
