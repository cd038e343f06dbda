import { FxCompositionEvent } from '../internal/constants.js';
import type { FxErrorDetail } from '../internal/events.js';

/** Listeners of the SDK's own parts (the controls' hint, a bound panel): they do not count as the page hearing. */
const internalListeners = new WeakSet<object>();

/** Marks `listener` as the SDK's own, so an event it alone heard is still delivered to the page's late listeners. */
export function internal<T extends object>(listener: T): T {
  internalListeners.add(listener);
  return listener;
}

/** The events whose news must not be lost to a page that listens late. */
const KEPT = [FxCompositionEvent.ready, FxCompositionEvent.error] as const;
type Kept = (typeof KEPT)[number];
const isKept = (type: string): type is Kept => (KEPT as readonly string[]).includes(type);

/** Errors kept for late listeners (the element's `errors` keeps as many). */
export const MAX_KEPT_ERRORS = 20;

type Listener = EventListenerOrEventListenerObject;

/**
 * `ready` and `error` events that no listener of the page heard — a framework hydrating server-rendered markup
 * attaches its handlers after the element started loading, and may attach them after it got ready or failed — are
 * delivered to the listeners added afterwards, each once, in a microtask, until the next load starts. So neither a
 * fast composition nor a slow page loses them; a page that listened in time hears each event once, as usual.
 */
export class UnheardEvents {
  /** The page's listeners of each kept event (with their `once`), as `addEventListener`/`removeEventListener` tell. */
  #listeners = {
    [FxCompositionEvent.ready]: new Map<Listener, boolean>(),
    [FxCompositionEvent.error]: new Map<Listener, boolean>(),
  };
  #readyUnheard = false;
  #errorsUnheard: FxErrorDetail[] = [];

  constructor(
    private readonly host: HTMLElement,
    private readonly isReady: () => boolean,
  ) {}

  added(type: string, listener: Listener | null, options?: boolean | AddEventListenerOptions): void {
    if (!listener || !isKept(type) || internalListeners.has(listener)) return;
    const once = typeof options === 'object' && options.once === true;
    this.#listeners[type].set(listener, once);
    const events =
      type === FxCompositionEvent.ready
        ? this.#readyUnheard && this.isReady()
          ? [new Event(FxCompositionEvent.ready, { bubbles: true, composed: true })]
          : []
        : this.#errorsUnheard.map((detail) => new CustomEvent(FxCompositionEvent.error, { composed: true, detail }));
    // A `once` listener goes with the first event it hears.
    for (const event of once ? events.slice(0, 1) : events) this.#deliver(listener, event, options);
  }

  removed(type: string, listener: Listener | null): void {
    if (listener && isKept(type)) this.#listeners[type].delete(listener);
  }

  /** Called as `ready` is dispatched. */
  ready(): void {
    this.#readyUnheard = !this.#heard(FxCompositionEvent.ready);
  }

  /** Called as an `error` is dispatched. */
  error(detail: FxErrorDetail): void {
    if (!this.#heard(FxCompositionEvent.error))
      this.#errorsUnheard = [...this.#errorsUnheard, detail].slice(-MAX_KEPT_ERRORS);
  }

  /** A new load starts: what the last one said is old news. */
  reset(): void {
    this.#readyUnheard = false;
    this.#errorsUnheard = [];
  }

  /** Whether a page listener hears the `type` event dispatched now (`once` ones go with it). */
  #heard(type: Kept): boolean {
    const listeners = this.#listeners[type];
    const heard = listeners.size > 0;
    for (const [listener, once] of listeners) if (once) listeners.delete(listener);
    return heard;
  }

  /** Calls `listener` with `event` in a microtask, as if dispatched on the element to it alone. */
  #deliver(listener: Listener, event: Event, options?: boolean | AddEventListenerOptions): void {
    queueMicrotask(() => {
      // Removed meanwhile, or a `once` one that heard something already.
      if (!this.#listeners[event.type as Kept].has(listener)) return;
      if (typeof options === 'object' && options.once) {
        this.host.removeEventListener(event.type, listener, options);
        this.#listeners[event.type as Kept].delete(listener);
      }
      Object.defineProperties(event, { target: { value: this.host }, currentTarget: { value: this.host } });
      if (typeof listener === 'function') listener.call(this.host, event);
      else listener.handleEvent(event);
    });
  }
}
