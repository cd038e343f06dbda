import { SCRIPT_READS } from '../protocol/messages.js';

/**
 * Names a script touches without meaning a variable: `await` and JSON.stringify look up `then` and `toJSON`, and
 * string conversion, `hasOwnProperty` calls and the like go through Object.prototype. An own key of that name (a
 * declared id) still counts.
 */
const NOT_IDS: ReadonlySet<string> = new Set(['then', 'toJSON', ...Object.getOwnPropertyNames(Object.prototype)]);

/**
 * Which top-level variable ids composition scripts read through `getVariables()` (and so its HyperFrames alias),
 * declared or not: lint sees bindings and inline script text, not `getVariables().title` in a fetched script.
 * {@link watch} wraps the values object a script gets in a Proxy that only records (reads, `in`, key listing,
 * descriptor lookups) and forwards everything, so values, enumeration, JSON.stringify output, writes and
 * frozen-ness stay what the plain object gives. (One difference no Proxy can hide: it cannot be structured-cloned,
 * so `postMessage` of it throws a `DataCloneError`; spread it first.) The ids go to `report` at most every
 * {@link SCRIPT_READS.intervalMs}, as the whole list so far, at most {@link SCRIPT_READS.maxIds} ids of at most
 * {@link SCRIPT_READS.maxIdLength} characters: a script reading generated names cannot flood the host.
 */
export class ScriptReads {
  readonly #ids = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the host channel exists; reads before that are reported then. */
  report: ((ids: string[]) => void) | undefined;

  watch<T extends Record<string, unknown>>(values: T): T {
    return new Proxy(values, {
      get: (target, key, receiver) => {
        this.#record(target, key);
        return Reflect.get(target, key, receiver);
      },
      has: (target, key) => {
        this.#record(target, key);
        return Reflect.has(target, key);
      },
      getOwnPropertyDescriptor: (target, key) => {
        this.#record(target, key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      ownKeys: (target) => {
        const keys = Reflect.ownKeys(target);
        for (const key of keys) this.#record(target, key);
        return keys;
      },
    });
  }

  #record(target: object, key: PropertyKey): void {
    if (typeof key !== 'string' || this.#ids.has(key) || this.#ids.size >= SCRIPT_READS.maxIds) return;
    if (key.length === 0 || key.length > SCRIPT_READS.maxIdLength) return;
    if (NOT_IDS.has(key) && !Object.hasOwn(target, key)) return;
    this.#ids.add(key);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.report?.([...this.#ids]);
    }, SCRIPT_READS.intervalMs);
  }
}
