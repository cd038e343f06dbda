import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface ViewportEvents {
  /** A load deferred by {@link Viewport.defer} may start now. */
  load(): void;
  /** The element came into view or left it (after any deferred load started). */
  change(visible: boolean): void;
}

/** Whether the element is in the viewport: lazy loading waits for it, and playback pauses off screen. */
export class Viewport implements ReactiveController {
  #visible = false;
  #deferred = false;
  #observer = new IntersectionObserver((entries) => this.#change(entries.at(-1)?.isIntersecting ?? false));

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly events: ViewportEvents,
  ) {
    host.addController(this);
  }

  get visible(): boolean {
    return this.#visible;
  }

  hostConnected(): void {
    this.#observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.#observer.disconnect();
  }

  /** True (and the load waits for the element to come into view) when `lazy` and off screen. */
  defer(lazy: boolean): boolean {
    this.#deferred = lazy && !this.#visible;
    return this.#deferred;
  }

  #change(visible: boolean): void {
    this.#visible = visible;
    if (visible && this.#deferred) this.events.load();
    this.events.change(visible);
  }
}
