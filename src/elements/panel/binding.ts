import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { FxCompositionEvent } from '../internal/constants.js';
import type { FxErrorDetail, FxVariablesChangeDetail } from '../internal/events.js';
import type { FxComposition } from '../composition/fx-composition.js';
import { internal } from '../composition/unheard-events.js';

export interface BindingEvents {
  /** Another composition (or none) is bound now. */
  bound(): void;
  /** The bound composition loaded (or reloaded) what it shows. */
  loaded(): void;
  variablesChanged(detail: FxVariablesChangeDetail): void;
  /** The bound composition's scripts read variables they had not (see `variablesRead`). */
  read(): void;
  failed(detail: FxErrorDetail): void;
}

/**
 * Which `<fx-composition>` a panel edits: the one set directly (pinned), else the one its `for` id names in its
 * document or shadow root, found again whenever that tree changes (the composition may come later, or be replaced).
 */
export class PanelBinding implements ReactiveController {
  #composition: FxComposition | null = null;
  #pinned = false;
  #id = '';
  #observer: MutationObserver | undefined;
  // The SDK's own: a panel hearing `ready` or `error` leaves the page's late listeners their due (unheard-events.ts).
  #listeners: [string, EventListener][] = [
    [FxCompositionEvent.loadedMetadata, () => this.events.loaded()],
    [FxCompositionEvent.ready, internal(() => this.events.loaded())],
    [
      FxCompositionEvent.variablesChange,
      (event) => this.events.variablesChanged((event as CustomEvent<FxVariablesChangeDetail>).detail),
    ],
    [FxCompositionEvent.variablesRead, () => this.events.read()],
    [
      FxCompositionEvent.error,
      internal((event: Event) => this.events.failed((event as CustomEvent<FxErrorDetail>).detail)),
    ],
  ];

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly events: BindingEvents,
  ) {
    host.addController(this);
  }

  get composition(): FxComposition | null {
    return this.#composition;
  }

  /** Binds `element` whatever `for` says; `null` goes back to following `for`. */
  pin(element: FxComposition | null): void {
    this.#pinned = element !== null;
    if (this.#pinned) this.#stopObserving();
    if (element) this.#attach(element);
    else this.#resolve();
  }

  /** Follows the composition with this id. */
  follow(id: string): void {
    this.#id = id;
    if (!this.#pinned) this.#resolve();
  }

  hostConnected(): void {
    if (this.#pinned) this.#listen(this.#composition, true);
    else this.#resolve();
  }

  hostDisconnected(): void {
    this.#stopObserving();
    this.#listen(this.#composition, false);
    // Found again on reconnect (the tree may have changed meanwhile); a pinned one is listened to again.
    if (!this.#pinned) this.#composition = null;
  }

  #resolve(): void {
    if (!this.host.isConnected) return;
    const root = this.host.getRootNode();
    if (!(root instanceof Document || root instanceof ShadowRoot)) return;
    if (!this.#observer) {
      this.#observer = new MutationObserver(() => this.#resolve());
      this.#observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['id'] });
    }
    const found = this.#id ? root.getElementById(this.#id) : null;
    this.#attach(found?.localName === 'fx-composition' ? (found as FxComposition) : null);
  }

  #stopObserving(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  #attach(element: FxComposition | null): void {
    if (element === this.#composition) return;
    this.#listen(this.#composition, false);
    this.#composition = element;
    this.#listen(element, true);
    this.events.bound();
    this.host.requestUpdate();
  }

  #listen(element: FxComposition | null, on: boolean): void {
    for (const [name, listener] of this.#listeners) {
      if (on) element?.addEventListener(name, listener);
      else element?.removeEventListener(name, listener);
    }
  }
}
