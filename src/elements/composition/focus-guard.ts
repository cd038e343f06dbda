import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Keeps keyboard focus out of the element's composition frame. A composition may call `window.focus()` or focus
 * an input of its own at any time, without user activation, and then read the keys the user meant for the host
 * page. The preview never needs focus (its controls live in the element's shadow root, outside the frame), so
 * when the frame takes it, the guard gives it back to what had it. (`inert` on the iframe does not stop this.)
 */
export class FocusGuard implements ReactiveController {
  /** The last element focused on the page outside the frame. */
  #previous: WeakRef<Element> | undefined;
  #check = 0;
  /** True once this element's frame was caught taking focus. */
  #caught = false;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    const active = deepActiveElement();
    if (active && !this.#isFrame(active)) this.#previous = new WeakRef(active);
    window.addEventListener('focusin', this.#onFocusIn, true);
    window.addEventListener('blur', this.#onWindowBlur);
  }

  hostDisconnected(): void {
    window.removeEventListener('focusin', this.#onFocusIn, true);
    window.removeEventListener('blur', this.#onWindowBlur);
    clearTimeout(this.#check);
    this.#check = 0;
  }

  #isFrame(element: Element): boolean {
    return element instanceof HTMLIFrameElement && element.getRootNode() === this.host.shadowRoot;
  }

  #onFocusIn = (event: FocusEvent) => {
    const target = event.composedPath()[0];
    if (target instanceof Element && !this.#isFrame(target)) this.#previous = new WeakRef(target);
  };

  // Focus moving into a child frame blurs the page's window. Which frame took it is read a task later: Chromium
  // moves focus into a frame (an out-of-process one, like this sandboxed frame) asynchronously.
  #onWindowBlur = () => {
    this.#check ||= window.setTimeout(() => {
      this.#check = 0;
      if (this.#frameHasFocus()) this.#giveBack();
    });
  };

  #frameHasFocus(): boolean {
    // Another window or application took focus: not the frame's doing.
    if (!document.hasFocus()) return false;
    const active = deepActiveElement();
    if (active && this.#isFrame(active)) return true;
    // Once focus was given back, Chromium may not tell the page again when the frame retakes it: the page then
    // names a focused element that is no frame while a child frame holds focus. Read as this frame, again.
    return this.#caught && !(active instanceof HTMLIFrameElement);
  }

  #giveBack(): void {
    this.#caught = true;
    // The page's window first: focusing an element alone leaves keys going to the frame.
    window.focus();
    const previous = this.#previous?.deref();
    if (previous?.isConnected && previous instanceof HTMLElement) previous.focus({ preventScroll: true });
  }
}

/** The focused element, looked for through open shadow roots. */
function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
